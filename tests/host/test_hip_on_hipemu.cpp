// The hip backend of libdppgemm, unchanged and linked against libamdhip64,
// run with libdppgemm-hipemu preloaded (CTest sets LD_PRELOAD): every result
// bitwise equal to the emu backend's.
#include <catch2/catch.hpp>

#include <hip/hip_runtime_api.h>

#include <cstdlib>
#include <string>

#include "dppgemm/dppgemm.hpp"
#include "sgemm_problems.hpp"

using dppgemm::Backend;

namespace {

// Chooses the emulated GPU; only the first HIP call of the process reads it,
// and CTest runs each test case in a process of its own.
std::string emulate(const char* arch) {
    setenv("DPPGEMM_HIPEMU_ARCH", arch, 1);
    hipDeviceProp_t props;
    const hipError_t e = hipGetDeviceProperties(&props, 0);
    INFO("hipGetDeviceProperties: " << hipGetErrorName(e) << "; run with LD_PRELOAD=libdppgemm-hipemu.so");
    REQUIRE(e == hipSuccess);
    const std::string name = props.gcnArchName;
    return name.substr(0, name.find(':'));
}

void hip_equals_emu(const std::string& target) {
    for (const char* layout : {"NN", "NT", "TN", "TT"})
        for (dppgemm::Variant variant : dppgemm::available_variants(target)) {  // packed too on gfx942
            const Problem p =
                Problem::random(layout[0], layout[1], 131, 129, 19, 2, unsigned(layout[1] * 3 + layout[0]));
            dppgemm::Options options;
            options.variant = variant;
            options.allow_emu_fallback = false;
            options.backend = Backend::hip;
            std::vector<float> on_hip, on_emu;
            const dppgemm::Result hip = p.run(on_hip, options);
            options.backend = Backend::emu;
            options.emu_target = target;
            const dppgemm::Result emu = p.run(on_emu, options);
            INFO(target << " " << layout << " " << dppgemm::to_string(variant) << ": " << hip.message);
            REQUIRE(hip);
            REQUIRE(emu);
            CHECK(hip.backend == Backend::hip);
            CHECK(hip.target == target);
            CHECK(hip.kernel == emu.kernel);
            CHECK(hip.milliseconds > 0.0);
            CHECK(bitwise_equal(on_hip, on_emu));
        }
}

}  // namespace

TEST_CASE("hip backend on hipemu gfx906: bitwise the emu backend") { hip_equals_emu(emulate("gfx906")); }

TEST_CASE("hip backend on hipemu gfx942 (v_fmac_f32): bitwise the emu backend") { hip_equals_emu(emulate("gfx942")); }

TEST_CASE("hip backend on hipemu: a device without dppgemm kernels is unsupported, named") {
    REQUIRE(emulate("gfx940") == "gfx940");
    const Problem p = Problem::random('N', 'N', 4, 4, 4, 0, 9);
    dppgemm::Options options;
    options.backend = Backend::hip;
    options.allow_emu_fallback = false;
    std::vector<float> c;
    const dppgemm::Result r = p.run(c, options);
    CHECK(r.status == dppgemm::Status::unsupported);
    CHECK(r.message == "hip: no dppgemm kernel for device 'gfx940:sramecc+:xnack-'");
    CHECK(bitwise_equal(c, p.c));
}
