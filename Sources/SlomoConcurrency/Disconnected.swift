/// `object`, as a value the caller may send to another thread, where the compiler cannot see
/// that it is one and a check at run time shows it: nothing else holds a reference to it.
///
/// The compiler's region analysis puts every pointer handed to C in one region, so a frame or
/// packet that FFmpeg has just filled (`Decoder.receive()`, `FilterGraph.pull()`, …) counts as
/// tied to the context that filled it, though it holds no reference to it; and an object taken
/// out of a collection counts as part of it. This is the one step from such an object to a
/// `sending` one: it traps unless the reference passed in is the only one (a frame still held
/// by an array, a cache or another stage is not), which is what "moved, never shared" means
/// for the object itself. What the object holds (an `AVFrame`'s reference-counted buffers, a
/// decoder's codec context) must be its own: the callers say why it is.
///
/// Pass a local with `consume` (`disconnected(consume frame)`) unless the call is its last use
/// before the scope ends: a debug build keeps a local's reference until then, and the check
/// would see two.
public func disconnected<Object: AnyObject>(_ object: consuming Object) -> sending Object {
    precondition(isKnownUniquelyReferenced(&object), "\(Object.self) handed on while another reference to it is held")
    // Checked just above: the only reference, so no other region can reach it.
    nonisolated(unsafe) let moved = object
    return moved
}
