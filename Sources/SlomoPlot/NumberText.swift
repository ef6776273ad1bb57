import Foundation

/// Numbers as people write them on a plot: at most `places` decimals, without trailing
/// zeros (`0.25`, `60`, `29.97`).
func trimmedNumber(_ value: Double, places: Int) -> String {
    var text = String(format: "%.\(places)f", value)
    guard text.contains(".") else { return text }
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
}
