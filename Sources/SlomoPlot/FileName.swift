/// The last component of a path, as plots name the files they are about (`take.mov` for
/// `runs/night/take.mov`).
func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}
