import CSDL2
import Synchronization

/// SDL's process-wide state: its subsystems are started once and its error text read here.
enum SDL {
    /// SDL's description of the last failure.
    static var lastError: String { String(cString: SDL_GetError()) }
}

/// Starts SDL subsystems on first use (SDL counts them; slomo never quits them early).
enum SDLSubsystem {
    private static let started = Mutex<UInt32>(0)

    static func start(_ flags: UInt32) throws {
        try started.withLock { started in
            let wanted = flags
            guard started & wanted != wanted else { return }
            SDL_SetMainReady()
            guard SDL_InitSubSystem(wanted) == 0 else {
                let kind: PlaybackError.Kind = wanted & UInt32(SDL_INIT_VIDEO) != 0 ? .noDisplay : .noSoundDevice
                throw PlaybackError(kind, SDL.lastError)
            }
            started |= wanted
        }
    }
}
