#include "CSHA256.h"

#include <string.h>

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotate_right(uint32_t value, int count) { return (value >> count) | (value << (32 - count)); }

static inline uint32_t big_endian_word(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

/// FIPS 180-4 §6.2.2 over `count` 64-byte blocks.
static void compress_portable(uint32_t state[8], const uint8_t *blocks, size_t count) {
    for (; count > 0; count--, blocks += 64) {
        uint32_t schedule[64];
        for (int t = 0; t < 16; t++) schedule[t] = big_endian_word(blocks + 4 * t);
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = rotate_right(schedule[t - 15], 7) ^ rotate_right(schedule[t - 15], 18) ^ (schedule[t - 15] >> 3);
            uint32_t s1 = rotate_right(schedule[t - 2], 17) ^ rotate_right(schedule[t - 2], 19) ^ (schedule[t - 2] >> 10);
            schedule[t] = schedule[t - 16] + s0 + schedule[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t sum1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
            uint32_t choice = (e & f) ^ (~e & g);
            uint32_t first = h + sum1 + choice + round_constants[t] + schedule[t];
            uint32_t sum0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
            uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
            h = g; g = f; f = e; e = d + first;
            d = c; c = b; b = a; a = first + sum0 + majority;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int slomo_sha256_accelerated(void) {
    unsigned int eax, ebx, ecx, edx;
    // SHA (leaf 7, EBX bit 29) and SSE4.1 (leaf 1, ECX bit 19), which the blend below needs.
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || !(ebx & (1u << 29))) return 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 19));
}

/// The same blocks with SHA-NI. The instructions keep the state as two vectors, ABEF and CDGH;
/// each sha256rnds2 does two rounds, and msg1/msg2 extend the schedule four words at a time.
__attribute__((target("sha,sse4.1")))
static void compress_accelerated(uint32_t state[8], const uint8_t *blocks, size_t count) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1); // C D A B
    __m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); // E F G H
    __m128i abef = _mm_alignr_epi8(dcba, hgfe, 8);
    __m128i cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);
    for (; count > 0; count--, blocks += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i words[4];
        for (int group = 0; group < 16; group++) {
            __m128i next;
            if (group < 4) {
                next = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16 * group)), byte_swap);
            } else {
                // W[t-16] + σ0(W[t-15]), + W[t-7], then + σ1(W[t-2]) for the four t of this group.
                __m128i partial = _mm_sha256msg1_epu32(words[group & 3], words[(group + 1) & 3]);
                partial = _mm_add_epi32(partial, _mm_alignr_epi8(words[(group + 3) & 3], words[(group + 2) & 3], 4));
                next = _mm_sha256msg2_epu32(partial, words[(group + 3) & 3]);
            }
            words[group & 3] = next;
            __m128i scheduled = _mm_add_epi32(next, _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, scheduled);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(scheduled, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}
#else
int slomo_sha256_accelerated(void) { return 0; }

static void compress_accelerated(uint32_t state[8], const uint8_t *blocks, size_t count) {
    compress_portable(state, blocks, count);
}
#endif

static void compress(SlomoSHA256 *context, const uint8_t *blocks, size_t count) {
    if (context->portable) compress_portable(context->state, blocks, count);
    else compress_accelerated(context->state, blocks, count);
}

void slomo_sha256_init(SlomoSHA256 *context, int portable) {
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(context->state, initial, sizeof(initial));
    context->pendingCount = 0;
    context->length = 0;
    context->portable = portable || !slomo_sha256_accelerated();
}

void slomo_sha256_update(SlomoSHA256 *context, const void *bytes, size_t count) {
    const uint8_t *input = bytes;
    context->length += count;
    if (context->pendingCount > 0) {
        size_t taken = 64 - context->pendingCount < count ? 64 - context->pendingCount : count;
        memcpy(context->pending + context->pendingCount, input, taken);
        context->pendingCount += taken;
        input += taken;
        count -= taken;
        if (context->pendingCount < 64) return;
        compress(context, context->pending, 1);
        context->pendingCount = 0;
    }
    compress(context, input, count / 64);
    memcpy(context->pending, input + count / 64 * 64, count % 64);
    context->pendingCount = count % 64;
}

void slomo_sha256_final(SlomoSHA256 *context, uint8_t *digest) {
    uint64_t bits = context->length * 8;
    uint8_t padding[72] = {0x80};
    // A 1 bit, zeros up to 56 bytes into a block, then the length in bits, big-endian.
    size_t zeros = (context->pendingCount < 56 ? 56 : 120) - context->pendingCount;
    for (int index = 0; index < 8; index++) padding[zeros + index] = (uint8_t)(bits >> (56 - 8 * index));
    uint64_t length = context->length;
    slomo_sha256_update(context, padding, zeros + 8);
    context->length = length;
    for (int index = 0; index < 8; index++) {
        digest[4 * index] = (uint8_t)(context->state[index] >> 24);
        digest[4 * index + 1] = (uint8_t)(context->state[index] >> 16);
        digest[4 * index + 2] = (uint8_t)(context->state[index] >> 8);
        digest[4 * index + 3] = (uint8_t)context->state[index];
    }
}
