// SHA-256 (FIPS 180-4) for the digests a batch records of every output: with the CPU's SHA
// instructions where it has them (x86-64 SHA-NI: about 2 GB/s, ten times FFmpeg's av_sha),
// otherwise in portable C. A small C target so that hashing needs no library at all.
#ifndef SLOMO_CSHA256_H
#define SLOMO_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// A running SHA-256: the chaining state, the bytes of an unfinished block, the length so far.
typedef struct SlomoSHA256 {
    uint32_t state[8];
    uint8_t pending[64];
    size_t pendingCount;
    uint64_t length;
    int portable;
} SlomoSHA256;

/// Starts a digest; `portable` non-zero uses the portable code even where SHA instructions exist
/// (for tests that hold both to the same answers).
void slomo_sha256_init(SlomoSHA256 *_Nonnull context, int portable);

/// Adds `count` bytes.
void slomo_sha256_update(SlomoSHA256 *_Nonnull context, const void *_Nullable bytes, size_t count);

/// Finishes the digest into `digest` (32 bytes); the context must be initialised again before reuse.
void slomo_sha256_final(SlomoSHA256 *_Nonnull context, uint8_t *_Nonnull digest);

/// Whether this CPU has the SHA instructions the fast path uses.
int slomo_sha256_accelerated(void);

#endif
