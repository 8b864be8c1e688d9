// Image instructions with hand-built descriptors: every address mode under
// point and bilinear filtering (image_sample_lz), image_load's bounds, and
// the fault that names an unsupported descriptor field. The descriptor words
// are spelled out here from the field positions of the "Vega" ISA guide's
// image resource and sampler tables (not with the emulator's encoder), and
// the expected texels come from the filter model of docs/textures.md.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

constexpr int kWidth = 8, kHeight = 4;

float texel_value(int x, int y) { return float(x * 3 + y * 17) * 0.125f - 2.0f; }

// T#: 2-D, DATA_FORMAT 32 (4), NUM_FORMAT FLOAT (7), linear, identity DST_SEL.
std::vector<u32> image_resource(u64 base, u32 sw_mode = 0) {
    std::vector<u32> t(8, 0);
    t[0] = u32(base >> 8);                                               // BASE_ADDRESS 39:8
    t[1] = u32(base >> 40) | 4u << 20 | 7u << 26;                        // BASE_ADDRESS_HI, DATA_FORMAT, NUM_FORMAT
    t[2] = u32(kWidth - 1) | u32(kHeight - 1) << 14;                     // WIDTH - 1, HEIGHT - 1
    t[3] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | sw_mode << 20 | 9u << 28;  // DST_SEL_XYZW, SW_MODE, TYPE 2D
    t[4] = u32(kWidth - 1) << 13;                                        // PITCH - 1
    return t;
}

// S#: CLAMP_X = CLAMP_Y = `mode`, XY_MAG/MIN_FILTER = `filter`, transparent black border.
std::vector<u32> sampler(u32 mode, u32 filter) { return {mode | mode << 3, 0, filter << 20 | filter << 22, 0}; }

double fixed8(double x) { return std::nearbyint(x * 256.0) / 256.0; }

// Texel index under SQ_TEX_CLAMP `mode`; -1 for the border.
int address(int i, int n, u32 mode) {
    switch (mode) {
    case 0: return ((i % n) + n) % n;  // wrap
    case 1: {                          // mirror
        const int m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    case 2: return std::min(std::max(i, 0), n - 1);                         // clamp to last texel
    case 3: return std::min(i < 0 ? -i - 1 : i, n - 1);                     // mirror once, last texel
    case 6: return i < 0 || i >= n ? -1 : i;                                // clamp to border
    default: return (i < 0 ? -i - 1 : i) >= n ? -1 : (i < 0 ? -i - 1 : i);  // 7: mirror once, border
    }
}

float expected_sample(float s, float t, u32 mode, bool bilinear) {
    const double u = fixed8(double(s) * kWidth), v = fixed8(double(t) * kHeight);
    auto texel = [&](int x, int y) {
        const int ax = address(x, kWidth, mode), ay = address(y, kHeight, mode);
        return ax < 0 || ay < 0 ? 0.0f : texel_value(ax, ay);
    };
    if (!bilinear) return texel(int(std::floor(u)), int(std::floor(v)));
    const double us = u - 0.5, vs = v - 0.5;
    const int x0 = int(std::floor(us)), y0 = int(std::floor(vs));
    const float a = float(us - x0), b = float(vs - y0);
    const float top = (1.0f - a) * texel(x0, y0) + a * texel(x0 + 1, y0);
    const float bottom = (1.0f - a) * texel(x0, y0 + 1) + a * texel(x0 + 1, y0 + 1);
    return (1.0f - b) * top + b * bottom;
}

// p1: the image, p2: T# then S#, p3: (s, t) per lane; p0: the results.
const char* const sample_body = R"(
  s_load_dwordx8 s[20:27], s[8:9], 0x0
  s_load_dwordx4 s[28:31], s[8:9], 0x20
  v_lshlrev_b32 v2, 1, v1
  global_load_dwordx2 v[2:3], v2, s[10:11]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  image_sample_lz v4, v[2:3], s[20:27], s[28:31] dmask:0x1
  s_waitcnt vmcnt(0)
  global_store_dword v1, v4, s[4:5]
)";

// p1 holds the image.
void fill_image(TestRun& run) {
    std::vector<float> image(kWidth * kHeight);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) image[y * kWidth + x] = texel_value(x, y);
    run.fill_floats(1, image);
}

}  // namespace

TEST_CASE("image_sample_lz filters and addresses as the model says", "[memory][image]") {
    const CodeObject co = assemble_kernel(sample_body);
    const Program program = build_program(co, co.kernels.at(0));
    std::vector<float> coordinates(128);
    for (int l = 0; l < 64; ++l) {
        coordinates[2 * l] = -1.3f + 0.0577f * float(l);  // beyond both edges
        coordinates[2 * l + 1] = 1.9f - 0.061f * float(l);
    }
    coordinates[0] = 0.5f / kWidth;  // a texel centre
    coordinates[1] = 0.5f / kHeight;
    for (u32 mode : {0u, 1u, 2u, 3u, 6u, 7u}) {
        for (u32 filter : {0u, 1u}) {
            INFO("CLAMP " << mode << ", filter " << filter);
            TestRun run(256);
            fill_image(run);
            REQUIRE(run.buffer[1] % 256 == 0);
            std::vector<u32> descriptors = image_resource(run.buffer[1]);
            const std::vector<u32> s = sampler(mode, filter);
            descriptors.insert(descriptors.end(), s.begin(), s.end());
            run.fill(2, descriptors);
            run.fill_floats(3, coordinates);
            run.run_to_end(program);
            const std::vector<float> got = run.read_floats(0, 64);
            for (int l = 0; l < 64; ++l) {
                INFO("lane " << l << " at (" << coordinates[2 * l] << ", " << coordinates[2 * l + 1] << ")");
                const float want = expected_sample(coordinates[2 * l], coordinates[2 * l + 1], mode, filter == 1);
                CHECK(std::memcmp(&got[l], &want, sizeof want) == 0);
            }
        }
    }
}

TEST_CASE("image_load reads texels by integer coordinates and zero outside the image", "[memory][image]") {
    const CodeObject co = assemble_kernel(R"(
  s_load_dwordx8 s[20:27], s[8:9], 0x0
  v_lshlrev_b32 v2, 1, v1
  global_load_dwordx2 v[2:3], v2, s[10:11]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  image_load v4, v[2:3], s[20:27] dmask:0x1 unorm
  s_waitcnt vmcnt(0)
  global_store_dword v1, v4, s[4:5]
)");
    TestRun run(256);
    fill_image(run);
    run.fill(2, image_resource(run.buffer[1]));
    std::vector<u32> coordinates(128);
    for (u32 l = 0; l < 64; ++l) coordinates[2 * l] = l % 11, coordinates[2 * l + 1] = l / 11;
    run.fill(3, coordinates);
    run.run_to_end(build_program(co, co.kernels.at(0)));
    const std::vector<float> got = run.read_floats(0, 64);
    for (u32 l = 0; l < 64; ++l) {
        const int x = int(l % 11), y = int(l / 11);
        const float want = x < kWidth && y < kHeight ? texel_value(x, y) : 0.0f;
        INFO("lane " << l);
        CHECK(std::memcmp(&got[l], &want, sizeof want) == 0);
    }
}

TEST_CASE("an image descriptor field the emulator does not model stops the run naming it", "[memory][image]") {
    const CodeObject co = assemble_kernel(sample_body);
    TestRun run(256);
    fill_image(run);
    std::vector<u32> descriptors = image_resource(run.buffer[1], 9);  // SW_MODE 9: a swizzled tiling
    const std::vector<u32> s = sampler(0, 0);
    descriptors.insert(descriptors.end(), s.begin(), s.end());
    run.fill(2, descriptors);
    const DispatchResult r = run.run(build_program(co, co.kernels.at(0)));
    REQUIRE(r.fault);
    INFO(r.fault->message);
    CHECK(r.fault->message.find("SW_MODE") != std::string::npos);
    CHECK(r.fault->message.find("= 9") != std::string::npos);
}
