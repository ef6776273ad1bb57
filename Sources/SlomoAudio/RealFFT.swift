import CFFTW
import Foundation
import Synchronization

/// A real FFT of one size (FFTW, single precision) with its own aligned buffers: `forward()`
/// turns `time` (n samples) into `spectrum` (n/2 + 1 complex bins, interleaved re/im);
/// `inverse()` turns `spectrum` back into `time`, scaled by n (FFTW does not normalise).
///
/// FFTW's planner is not thread-safe, so plans are made under one process-wide lock; running
/// a plan on its own buffers is. A transform belongs to one thread at a time.
final class RealFFT {
    let size: Int
    let time: UnsafeMutablePointer<Float>
    let spectrum: UnsafeMutablePointer<Float>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// Serialises FFTW's planner (plans made once per size are remembered by FFTW, so later
    /// ones of the same size are cheap, and `FFTWisdom` keeps them between runs).
    private static let planner = Mutex(FFTWisdom())

    init(size: Int) {
        precondition(size >= 2 && size % 2 == 0, "real FFT size must be even")
        self.size = size
        let real = fftwf_alloc_real(size)!
        let complex = fftwf_alloc_complex(size / 2 + 1)!
        time = real
        spectrum = UnsafeMutableRawPointer(complex).assumingMemoryBound(to: Float.self)
        // FFTW_MEASURE overwrites the buffers while planning; they are filled before each use.
        let flags = UInt32(FFTW_MEASURE) | UInt32(FFTW_DESTROY_INPUT)
        // The plans stay on this thread: the lock's body only fills them in.
        var plans: (forward: fftwf_plan, inverse: fftwf_plan)?
        Self.planner.withLock { wisdom in
            wisdom.loadOnce()
            let started = DispatchTime.now().uptimeNanoseconds
            let forward = fftwf_plan_dft_r2c_1d(Int32(size), real, complex, flags)!
            let inverse = fftwf_plan_dft_c2r_1d(Int32(size), complex, real, flags)!
            plans = (forward, inverse)
            // Planning from wisdom takes microseconds; anything slower measured something new.
            if DispatchTime.now().uptimeNanoseconds - started > 20_000_000 { FFTWisdom.save() }
        }
        forwardPlan = plans!.forward
        inversePlan = plans!.inverse
        time.initialize(repeating: 0, count: size)
        spectrum.initialize(repeating: 0, count: size + 2)
    }

    deinit {
        let (forward, inverse) = (forwardPlan, inversePlan)
        Self.planner.withLock { _ in
            fftwf_destroy_plan(forward)
            fftwf_destroy_plan(inverse)
        }
        fftwf_free(time)
        fftwf_free(spectrum)
    }

    /// `time` → `spectrum` (bin k at `spectrum[2k]`, `spectrum[2k + 1]`).
    func forward() { fftwf_execute(forwardPlan) }

    /// `spectrum` → `time`, n times the inverse transform. Destroys `spectrum`.
    func inverse() { fftwf_execute(inversePlan) }
}
