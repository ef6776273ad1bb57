import SlomoMedia
import Testing

/// The libraries a command may open ahead of need, by name: every name must be one the loader's
/// table (generated from COnDemand's libraries.txt) lists, or opening it ahead does nothing.
@Suite struct JobLibrariesTests {
    @Test func everyLibraryOpensByName() {
        for library in JobLibraries.Library.allCases {
            #expect(JobLibraries.open(library), "\(library.rawValue) did not open (scripts/setup installs it)")
        }
    }
}
