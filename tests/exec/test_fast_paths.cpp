// Fast paths against the general path: the same program built twice, once
// as build_program makes it and once with use_general_paths() (every
// instruction fetched, gathered and committed the general way), run on the
// same inputs; every result register must be equal bit for bit.
//
// Multiply-add runs with DPP src0 (ExecInst::row_dpp_vgprs, the AVX-512 rows
// of sem_vector.cpp on CPUs that have it): every DPP control, row/bank masks,
// bound_ctrl, inactive lanes, the fp32 denorm modes, v_mac_f32 (two
// roundings, always flushing) and v_fmac_f32 (fused, flushing per mode), on
// inputs full of denormals, zeros, infinities and NaNs. Runs chain: later
// instructions read earlier results through DPP.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <tuple>

#include "emu/exec/host_float_mode.hpp"
#include "emu/exec/semantics.hpp"
#include "emu/exec/wave.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

// The kernel's program twice: as build_program makes it ([0]) and with
// use_general_paths ([1]).
std::array<Program, 2> fast_and_general(const CodeObject& co) {
    std::array<Program, 2> programs{build_program(co, co.kernels.at(0)), build_program(co, co.kernels.at(0))};
    use_general_paths(programs[1]);
    return programs;
}

std::vector<std::string> dpp_controls(bool gfx90a) {
    std::vector<std::string> c = {"quad_perm:[0,0,2,2]", "quad_perm:[1,1,3,3]", "quad_perm:[3,2,1,0]",
                                  "quad_perm:[2,2,2,2]", "row_mirror",          "row_half_mirror",
                                  "wave_shl:1",          "wave_rol:1",          "wave_shr:1",
                                  "wave_ror:1",          "row_bcast:15",        "row_bcast:31"};
    for (int n = 1; n <= 15; ++n)
        for (const char* kind : {"row_shl:", "row_shr:", "row_ror:"}) c.push_back(kind + std::to_string(n));
    if (gfx90a)
        for (int n : {0, 3, 15}) c.push_back("row_newbcast:" + std::to_string(n));
    return c;
}

// Lane values that exercise the flushes: normal, denormal, zero, inf, NaN,
// both signs. Finite: no inf or NaN, so that whole rows of results are free
// of NaNs (the rows' common case) and their denormal results are the
// flushes' work alone.
std::vector<std::uint32_t> awkward_floats(std::uint32_t seed, bool finite = false) {
    std::mt19937 rng(seed);
    std::vector<std::uint32_t> v(64);
    for (std::uint32_t& x : v) {
        const std::uint32_t sign = (rng() & 1u) << 31;
        const unsigned kind = rng() % 8;
        switch (finite && (kind == 2 || kind == 3) ? kind + 2 : kind) {
        case 0: x = sign | (rng() & 0x007fffffu); break;  // denormal (or zero)
        case 1: x = sign; break;
        case 2: x = sign | 0x7f800000u; break;
        case 3: x = 0x7fc00000u | (rng() & 0x3fffffu); break;
        case 4: x = sign | 0x00800000u | (rng() & 0x7fffffu); break;  // smallest binade: products go denormal
        default: x = sign | ((120u + rng() % 16) << 23) | (rng() & 0x7fffffu); break;
        }
    }
    return v;
}

struct Case {
    std::string mcpu, op;
    unsigned denorm_mode = 0;
    unsigned active_lanes = 64;
    bool finite = false;  // awkward_floats without inf and NaN
};

// One kernel: v2, v3, v4 loaded from p1..p3; for each control j,
// v[10+j] = v4, then a run of DPP multiply-adds: first v[10+j] += dpp(v2) * v3,
// then v[10+j] += dpp(v[10+j-1]) * v3 (the previous result of the same run);
// every v[10+j] is stored to p0 at 256 j. Every third DPP multiply-add is
// followed by a plain one, v[10+j] += v[10+j+1] * v3.
std::string body(const Case& c, const std::vector<std::string>& controls, std::size_t first, std::size_t count) {
    std::ostringstream s;
    s << "  global_load_dword v2, v1, s[6:7]\n  global_load_dword v3, v1, s[8:9]\n"
      << "  global_load_dword v4, v1, s[10:11]\n  s_waitcnt vmcnt(0)\n";
    for (std::size_t j = 0; j < count; ++j) s << "  v_mov_b32 v" << 10 + j << ", v4\n";
    if (c.active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << c.active_lanes << ", v0\n";
    s << "  s_nop 1\n";
    for (unsigned pass = 0; pass < 2; ++pass) {
        for (std::size_t j = 0; j < count; ++j) {
            const std::size_t k = first + j;
            const unsigned row_mask = (k % 5 == 1) ? 0xb : 0xf, bank_mask = (k % 7 == 2) ? 0x6 : 0xf;
            const bool bound_ctrl = (k + pass) % 2 == 0;
            const std::string src0 = pass == 0 ? "v2" : "v" + std::to_string(10 + (j + count - 1) % count);
            s << "  " << c.op << " v" << 10 + j << ", " << src0 << ", v3 " << controls[k] << " row_mask:0x" << std::hex
              << row_mask << " bank_mask:0x" << bank_mask << std::dec << (bound_ctrl ? " bound_ctrl:0" : "") << "\n";
            // Plain VGPR multiply-adds in the same run (the direct rows).
            if (j % 3 == 2) s << "  " << c.op << " v" << 10 + j << ", v" << 10 + (j + 1) % count << ", v3\n";
        }
    }
    s << "  s_mov_b64 exec, -1\n";
    for (std::size_t j = 0; j < count; ++j)
        s << "  global_store_dword v1, v" << 10 + j << ", s[4:5]\n  s_add_u32 s4, s4, 256\n  s_addc_u32 s5, s5, 0\n";
    return s.str();
}

std::vector<std::uint32_t> run_program(const Program& program, std::size_t stores, std::uint32_t seed,
                                       bool finite = false) {
    TestRun run(64 * stores);
    for (int i = 1; i <= 3; ++i) run.fill(i, awkward_floats(seed + std::uint32_t(i), finite));
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    return run.read(0, 64 * stores);
}

}  // namespace

TEST_CASE("multiply-add runs with DPP src0: fast path equals the general path bit for bit", "[exec][dpp][fast_paths]") {
    std::vector<Case> cases;
    for (const char* op : {"v_mac_f32", "v_fmac_f32"})
        for (unsigned denorm : {0u, 3u})
            for (unsigned active : {64u, 37u}) cases.push_back({"gfx906", op, denorm, active});
    cases.push_back({"gfx90a", "v_fmac_f32", 0, 64});
    cases.push_back({"gfx90a", "v_mac_f32", 3, 50});
    for (const char* op : {"v_mac_f32", "v_fmac_f32"})
        for (unsigned denorm : {0u, 3u}) cases.push_back({"gfx906", op, denorm, 64, true});
    std::uint32_t seed = 1;
    for (const Case& c : cases) {
        const std::vector<std::string> controls = dpp_controls(c.mcpu == "gfx90a");
        for (std::size_t first = 0; first < controls.size(); first += 40) {
            const std::size_t count = std::min<std::size_t>(40, controls.size() - first);
            INFO(c.mcpu << " " << c.op << " denorm mode " << c.denorm_mode << " active lanes " << c.active_lanes
                        << (c.finite ? " finite inputs" : "") << " controls from " << controls[first]);
            KernelOptions options;
            options.mcpu = c.mcpu;
            options.denorm_mode_32 = c.denorm_mode;
            options.vgprs = 128;
            const CodeObject co = assemble_kernel(body(c, controls, first, count), options);
            const Program fast = build_program(co, co.kernels.at(0));
            Program general = build_program(co, co.kernels.at(0));
            use_general_paths(general);
            // The fast program really has row-DPP multiply-adds, in runs.
            const auto row_dpp =
                std::count_if(fast.code.begin(), fast.code.end(), [](const ExecInst& e) { return e.row_dpp_vgprs; });
            CHECK(row_dpp > 0);
            CHECK(std::any_of(fast.code.begin(), fast.code.end(), [](const ExecInst& e) { return e.direct_vgprs; }));
            CHECK(std::any_of(fast.code.begin(), fast.code.end(),
                              [](const ExecInst& e) { return e.multiply_add_run > 8; }));
            ++seed;
            const std::vector<std::uint32_t> expected = run_program(general, count, seed, c.finite);
            const std::vector<std::uint32_t> got = run_program(fast, count, seed, c.finite);
            for (std::size_t i = 0; i < expected.size(); ++i) {
                INFO("control " << controls[first + i / 64] << " lane " << i % 64);
                REQUIRE(got[i] == expected[i]);
            }
        }
    }
}

// DPP multiply-adds whose pattern reads a valid source on every lane and
// writes every lane, in a quad (quad_perm) or as a row broadcast
// (row_newbcast): with EXEC full, the runs of in-place steps take them with
// src0 permuted in registers (DppPattern::full_exec), with EXEC partly clear
// the masked rows. The destination aliases src0 (the DPP source), src1,
// both, or neither (it always is the addend); plain steps in between; both
// fp32 denorm modes, v_mac_f32 and v_fmac_f32, inputs with and without
// infinities and NaNs.
namespace {

std::string full_dpp_body(const std::string& op, const std::vector<std::string>& controls, unsigned active_lanes,
                          std::size_t count) {
    const auto v = [&](std::size_t j) { return "v" + std::to_string(10 + j % count); };
    std::ostringstream s;
    s << "  global_load_dword v2, v1, s[6:7]\n  global_load_dword v3, v1, s[8:9]\n"
      << "  global_load_dword v4, v1, s[10:11]\n  s_waitcnt vmcnt(0)\n";
    for (std::size_t j = 0; j < count; ++j) s << "  v_mov_b32 " << v(j) << ", v" << 2 + j % 3 << "\n";
    if (active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
    s << "  s_nop 1\n";
    for (std::size_t i = 0; i < 3 * count; ++i) {
        const std::size_t j = i % count;
        std::string a = v(j + 1), b = i % 3 == 0 ? "v3" : "v4";
        if (i % 4 == 0) a = v(j);
        if (i % 4 == 1) b = v(j);
        if (i % 9 == 6) a = b = v(j);
        s << "  " << op << " " << v(j) << ", " << a << ", " << b << " " << controls[i % controls.size()]
          << " row_mask:0xf bank_mask:0xf\n";
        if (i % 4 == 3) s << "  " << op << " " << v(j) << ", " << v(j + 2) << ", v2\n";
    }
    s << "  s_mov_b64 exec, -1\n";
    for (std::size_t j = 0; j < count; ++j)
        s << "  global_store_dword v1, " << v(j) << ", s[4:5]\n  s_add_u32 s4, s4, 256\n  s_addc_u32 s5, s5, 0\n";
    return s.str();
}

}  // namespace

TEST_CASE("multiply-add runs with quad_perm and row_newbcast src0 on every lane equal the general path bit for bit",
          "[exec][dpp][fast_paths]") {
    constexpr std::size_t count = 12;
    const std::vector<std::string> quad = {"quad_perm:[0,0,0,0]", "quad_perm:[1,1,3,3]", "quad_perm:[3,2,1,0]",
                                           "quad_perm:[2,2,0,0]", "quad_perm:[0,1,2,3]"};
    const std::vector<std::string> broadcast = {"row_newbcast:0", "row_newbcast:5", "row_newbcast:15",
                                                "row_newbcast:8"};
    std::uint32_t seed = 700;
    for (const char* mcpu : {"gfx906", "gfx90a"})
        for (const char* op : {"v_mac_f32", "v_fmac_f32"})
            for (const unsigned denorm : {0u, 3u})
                for (const unsigned active : {64u, 45u})
                    for (const bool finite : {false, true}) {
                        if (finite && active < 64) continue;  // NaN-free results matter to the register path
                        const bool gfx90a = std::string(mcpu) == "gfx90a";
                        const std::vector<std::string>& controls = gfx90a ? broadcast : quad;
                        INFO(mcpu << " " << op << " denorm mode " << denorm << " active lanes " << active
                                  << (finite ? " finite inputs" : ""));
                        KernelOptions options;
                        options.mcpu = mcpu;
                        options.denorm_mode_32 = denorm;
                        options.vgprs = 64;
                        const CodeObject co = assemble_kernel(full_dpp_body(op, controls, active, count), options);
                        const Program fast = build_program(co, co.kernels.at(0));
                        Program general = build_program(co, co.kernels.at(0));
                        use_general_paths(general);
                        // One run of 3 * count DPP steps and the plain ones, all in place.
                        const std::size_t steps = 3 * count + 3 * count / 4;
                        CHECK(std::any_of(fast.code.begin(), fast.code.end(), [&](const ExecInst& e) {
                            return e.multiply_add_run == steps && e.multiply_add_run_in_place == steps &&
                                   e.multiply_add_run_dpp == 3 * count;
                        }));
                        const DppPattern::FullExec form =
                            gfx90a ? DppPattern::FullExec::broadcast : DppPattern::FullExec::quad;
                        CHECK(fast.dpp_patterns.size() == controls.size());
                        for (const auto& pattern : fast.dpp_patterns) CHECK(pattern->full_exec == form);
                        ++seed;
                        const std::vector<std::uint32_t> expected = run_program(general, count, seed, finite);
                        const std::vector<std::uint32_t> got = run_program(fast, count, seed, finite);
                        for (std::size_t i = 0; i < expected.size(); ++i) {
                            INFO("register v" << 10 + i / 64 << " lane " << i % 64);
                            REQUIRE(got[i] == expected[i]);
                        }
                    }
}

// Runs of plain VGPR multiply-adds (dpp0's inner loop): with every lane
// active and no observer the run takes its step loop, which tests nothing
// per instruction; with an observer (told of every instruction) or some
// lanes inactive the loop that tests each step. All three equal the general
// path, results and counters. Destinations alias sources (src0, src1, the
// addend, all of them); v_mad_f32 and v_fma_f32 name their addend.
namespace {

std::string plain_multiply_add_body(const std::string& op, unsigned active_lanes, std::size_t count) {
    const bool three_sources = op == "v_mad_f32" || op == "v_fma_f32";
    const auto v = [&](std::size_t j) { return "v" + std::to_string(10 + j % count); };
    std::ostringstream s;
    s << "  global_load_dword v2, v1, s[6:7]\n  global_load_dword v3, v1, s[8:9]\n"
      << "  global_load_dword v4, v1, s[10:11]\n  s_waitcnt vmcnt(0)\n";
    for (std::size_t j = 0; j < count; ++j) s << "  v_mov_b32 " << v(j) << ", v" << 2 + j % 3 << "\n";
    if (active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
    for (std::size_t i = 0; i < 2 * count; ++i) {
        const std::size_t j = i % count;
        const std::string dst = v(j);
        std::string a = v(j + 1), b = v(j + 5), c = three_sources ? v(j + 2) : dst;
        if (i % 4 == 0) a = dst;
        if (i % 4 == 1) b = dst;
        if (i % 7 == 3) a = b = dst;
        if (three_sources && i % 5 == 0) c = dst;
        s << "  " << op << " " << dst << ", " << a << ", " << b << (three_sources ? ", " + c : "") << "\n";
    }
    s << "  s_mov_b64 exec, -1\n";
    for (std::size_t j = 0; j < count; ++j)
        s << "  global_store_dword v1, " << v(j) << ", s[4:5]\n  s_add_u32 s4, s4, 256\n  s_addc_u32 s5, s5, 0\n";
    return s.str();
}

// Watches every instruction and records, before each, its index and the
// lanes of its destination VGPR as they are then (the input state).
struct InstructionRecorder : WorkgroupObserver {
    std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>>* seen = nullptr;
    void before_instruction(const Wave& w, const ExecInst& e) override {
        std::vector<std::uint32_t> lanes;
        if (e.dst.kind == Src::Kind::vgpr) lanes.assign(w.v[e.dst.index], w.v[e.dst.index] + 64);
        seen->emplace_back(e.index, std::move(lanes));
    }
};
struct RecordEveryInstruction : DispatchObserver {
    std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> seen;  // one workgroup
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override {
        auto o = std::make_unique<InstructionRecorder>();
        o->seen = &seen;
        return o;
    }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};

// The same, for the instructions a watch plan names (as the checkers' plans
// leave multiply-adds out).
struct PlannedRecorder : InstructionRecorder {
    const std::vector<std::uint8_t>* plan = nullptr;
    const std::uint8_t* watched_instructions() const override { return plan->data(); }
};
struct RecordPlannedInstructions : DispatchObserver {
    std::vector<std::uint8_t> plan;
    std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> seen;  // one workgroup
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override {
        auto o = std::make_unique<PlannedRecorder>();
        o->seen = &seen;
        o->plan = &plan;
        return o;
    }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};

}  // namespace

TEST_CASE("plain multiply-add runs: the step loop equals the general path bit for bit", "[exec][fast_paths]") {
    constexpr std::size_t count = 24;
    std::uint32_t seed = 500;
    for (const char* op : {"v_mac_f32", "v_fmac_f32", "v_mad_f32", "v_fma_f32"})
        for (const unsigned denorm : {0u, 3u})
            for (const unsigned active : {64u, 37u})
                for (const bool finite : {false, true}) {
                    if (finite && active < 64) continue;  // NaN-free results matter to the step loop
                    INFO(op << " denorm mode " << denorm << " active lanes " << active
                            << (finite ? " finite inputs" : ""));
                    KernelOptions options;
                    options.mcpu = "gfx906";
                    options.denorm_mode_32 = denorm;
                    options.vgprs = 64;
                    const CodeObject co = assemble_kernel(plain_multiply_add_body(op, active, count), options);
                    const Program fast = build_program(co, co.kernels.at(0));
                    Program general = build_program(co, co.kernels.at(0));
                    use_general_paths(general);
                    // The fast program has the whole run as plain steps.
                    const auto run_start = std::find_if(fast.code.begin(), fast.code.end(), [](const ExecInst& e) {
                        return e.multiply_add_run == 2 * count && e.multiply_add_run_in_place == 2 * count &&
                               e.multiply_add_run_dpp == 0;
                    });
                    REQUIRE(run_start != fast.code.end());
                    ++seed;
                    // general, fast, general with an observer, fast with one,
                    // then both with an observer whose plan watches every
                    // instruction but the run's steps after its first, then
                    // both under that plan with step 13 watched too
                    std::vector<std::uint32_t> results[8];
                    Counters counters[8];
                    RecordEveryInstruction observers[2];
                    RecordPlannedInstructions planned[4];
                    const std::uint32_t watched_step = run_start->index + 13;
                    for (int p = 0; p < 4; ++p)
                        for (std::uint32_t i = 0; i < fast.code.size(); ++i)
                            planned[p].plan.push_back(i <= run_start->index || i >= run_start->index + 2 * count ||
                                                      (p >= 2 && i == watched_step));
                    for (int way = 0; way < 8; ++way) {
                        TestRun run(64 * count);
                        for (int i = 1; i <= 3; ++i) run.fill(i, awkward_floats(seed + std::uint32_t(i), finite));
                        if (way == 2 || way == 3) run.observer = &observers[way - 2];
                        if (way >= 4) run.observer = &planned[way - 4];
                        const DispatchResult r = run.run(way % 2 == 0 ? general : fast);
                        INFO((r.fault ? r.fault->message : std::string()));
                        REQUIRE(r.ok());
                        results[way] = run.read(0, 64 * count);
                        counters[way] = r.counters;
                    }
                    CHECK(counters[0].valu_multiply_add == 2 * count);
                    for (int way = 1; way < 8; ++way) {
                        INFO("way " << way
                                    << " (1: fast, 2: general observed, 3: fast observed, 4-5: general and fast "
                                       "under a plan, 6-7: the same with one step watched)");
                        CHECK(counters[way] == counters[0]);
                        for (std::size_t i = 0; i < results[0].size(); ++i) {
                            INFO("register v" << 10 + i / 64 << " lane " << i % 64);
                            REQUIRE(results[way][i] == results[0][i]);
                        }
                    }
                    // The observer saw every instruction, each with the same input state.
                    std::uint64_t executed = 0;
                    for (const std::uint64_t n : counters[0].instructions) executed += n;
                    CHECK(observers[0].seen.size() == executed);
                    CHECK(observers[0].seen == observers[1].seen);
                    // Under the plan: each instruction but the run's last 2 * count - 1 steps.
                    CHECK(planned[0].seen.size() == executed - (2 * count - 1));
                    CHECK(planned[0].seen == planned[1].seen);
                    // One step in the middle of the run watched: seen, on both paths.
                    CHECK(planned[2].seen.size() == executed - (2 * count - 2));
                    CHECK(planned[2].seen == planned[3].seen);
                    CHECK(std::count_if(planned[3].seen.begin(), planned[3].seen.end(),
                                        [&](const auto& seen) { return seen.first == watched_step; }) == 1);
                }
}

// DPP sources of other instructions (v_mov_b32_dpp, as the dpp3 kernels move
// A with row_ror:4; v_add_u32 with DPP): a row-local pattern is gathered by
// rows (dpp_gather_rows, AVX2 or AVX-512), the others and the general path
// lane by lane. Every control, row/bank masks, bound_ctrl, some lanes
// inactive (invalid sources); each instruction reads the previous result.
namespace {

std::string dpp_move_body(const std::vector<std::string>& controls, unsigned active_lanes) {
    std::ostringstream s;
    s << "  global_load_dword v2, v1, s[6:7]\n  global_load_dword v3, v1, s[8:9]\n  s_waitcnt vmcnt(0)\n";
    for (std::size_t j = 0; j < controls.size(); ++j) s << "  v_mov_b32 v" << 10 + j << ", v3\n";
    if (active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
    s << "  s_nop 1\n";
    for (std::size_t j = 0; j < controls.size(); ++j) {
        const unsigned row_mask = (j % 5 == 1) ? 0xb : 0xf, bank_mask = (j % 7 == 2) ? 0x6 : 0xf;
        const std::string src = j == 0 ? "v2" : "v" + std::to_string(9 + j);
        const std::string op = j % 4 == 3 ? "v_add_u32 v" + std::to_string(10 + j) + ", " + src + ", v3"
                                          : "v_mov_b32 v" + std::to_string(10 + j) + ", " + src;
        s << "  " << op << " " << controls[j] << " row_mask:0x" << std::hex << row_mask << " bank_mask:0x" << bank_mask
          << std::dec << (j % 2 == 0 ? " bound_ctrl:0" : "") << "\n  s_nop 1\n";
    }
    s << "  s_mov_b64 exec, -1\n";
    for (std::size_t j = 0; j < controls.size(); ++j)
        s << "  global_store_dword v1, v" << 10 + j << ", s[4:5]\n  s_add_u32 s4, s4, 256\n  s_addc_u32 s5, s5, 0\n";
    return s.str();
}

}  // namespace

TEST_CASE("DPP moves and other DPP sources: the row gather equals the lane-by-lane gather", "[exec][dpp][fast_paths]") {
    for (const char* mcpu : {"gfx906", "gfx90a"}) {
        const std::vector<std::string> controls = dpp_controls(std::string(mcpu) == "gfx90a");
        for (const unsigned active : {64u, 41u}) {
            INFO(mcpu << " active lanes " << active);
            KernelOptions options;
            options.mcpu = mcpu;
            options.vgprs = 128;
            const CodeObject co = assemble_kernel(dpp_move_body(controls, active), options);
            const Program fast = build_program(co, co.kernels.at(0));
            Program general = build_program(co, co.kernels.at(0));
            use_general_paths(general);
            CHECK(std::count_if(fast.dpp_patterns.begin(), fast.dpp_patterns.end(),
                                [](const auto& p) { return p->row_local; }) > 40);
            std::vector<std::uint32_t> stored[2];
            Counters counters[2];
            for (const bool general_path : {false, true}) {
                TestRun run(64 * controls.size());
                run.fill(1, awkward_floats(7));
                run.fill(2, awkward_floats(8));
                const DispatchResult r = run.run(general_path ? general : fast);
                INFO((r.fault ? r.fault->message : std::string()));
                REQUIRE(r.ok());
                stored[general_path] = run.read(0, 64 * controls.size());
                counters[general_path] = r.counters;
            }
            CHECK(counters[0] == counters[1]);
            for (std::size_t i = 0; i < stored[0].size(); ++i) {
                INFO("control " << controls[i / 64] << " lane " << i % 64);
                REQUIRE(stored[0][i] == stored[1][i]);
            }
        }
    }
}

// Packed multiply-add runs (v_pk_fma_f32, gfx90a and gfx940/gfx942): the AVX-512
// rows take the direct steps (VGPR pairs, op_sel/op_sel_hi any, no neg, no
// clamp); steps with neg_lo/neg_hi, clamp or a scalar or constant source stay
// on pk_f32 inside the run. Destinations overlap sources the other half reads;
// every fp32 denorm mode; all or some lanes active.
namespace {

std::string packed_body(unsigned active_lanes) {
    std::ostringstream s;
    // v2..v7 from p1, p2, p3 (each twice, paired differently); accumulators v[10:11]..v[24:25] = v[4:5].
    s << "  global_load_dword v2, v1, s[6:7]\n  global_load_dword v3, v1, s[8:9]\n"
      << "  global_load_dword v4, v1, s[10:11]\n  global_load_dword v5, v1, s[6:7]\n"
      << "  global_load_dword v6, v1, s[8:9]\n  global_load_dword v7, v1, s[10:11]\n  s_waitcnt vmcnt(0)\n"
      << "  v_xor_b32 v5, 0x80000000, v5\n  v_add_u32 v6, 1, v6\n";
    for (unsigned j = 0; j < 8; ++j)
        s << "  v_mov_b32 v" << 10 + 2 * j << ", v4\n  v_mov_b32 v" << 11 + 2 * j << ", v5\n";
    if (active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
    s << "  s_mov_b32 s20, 0x00400001\n  s_mov_b32 s21, 0xbf800000\n  s_nop 1\n";
    const char* modifiers[] = {"",
                               " op_sel:[1,0,0]",
                               " op_sel:[0,1,1] op_sel_hi:[1,0,0]",
                               " op_sel_hi:[0,0,0]",
                               " op_sel:[1,1,1] op_sel_hi:[0,1,0]",
                               " neg_lo:[1,0,0]",
                               " neg_hi:[0,1,1]",
                               " clamp"};
    for (unsigned pass = 0; pass < 3; ++pass) {
        for (unsigned j = 0; j < 8; ++j) {
            const unsigned d = 10 + 2 * j, prev = 10 + 2 * ((j + 7) % 8);
            const std::string dst = "v[" + std::to_string(d) + ":" + std::to_string(d + 1) + "]";
            const std::string prev_pair = "v[" + std::to_string(prev) + ":" + std::to_string(prev + 1) + "]";
            const std::string a = pass == 0 ? "v[2:3]" : prev_pair;
            const std::string b = (j + pass) % 5 == 3 ? "s[20:21]" : (j + pass) % 7 == 4 ? "1.0" : "v[6:7]";
            s << "  v_pk_fma_f32 " << dst << ", " << a << ", " << b << ", " << dst << modifiers[(j + pass) % 8] << "\n";
        }
        // The destination is a source of the same instruction, in either half.
        s << "  v_pk_fma_f32 v[2:3], v[2:3], v[10:11], v[2:3] op_sel:[1,0,1] op_sel_hi:[0,1,0]\n";
    }
    s << "  s_mov_b64 exec, -1\n";
    for (unsigned r = 0; r < 18; ++r) {
        const unsigned reg = r < 16 ? 10 + r : r - 14;  // v10..v25, v2, v3
        s << "  global_store_dword v1, v" << reg << ", s[4:5]\n  s_add_u32 s4, s4, 256\n  s_addc_u32 s5, s5, 0\n";
    }
    return s.str();
}

}  // namespace

TEST_CASE("packed multiply-add runs (v_pk_fma_f32): fast path equals the general path bit for bit",
          "[exec][packed][fast_paths]") {
    std::uint32_t seed = 100;
    for (const char* mcpu : {"gfx90a", "gfx940"})  // gfx942 assembles with LLVM 15 as gfx940
        for (unsigned denorm : {0u, 1u, 2u, 3u})
            for (unsigned active : {64u, 29u}) {
                INFO(mcpu << " denorm mode " << denorm << " active lanes " << active);
                KernelOptions options;
                options.mcpu = mcpu;
                options.denorm_mode_32 = denorm;
                options.vgprs = 64;
                const CodeObject co = assemble_kernel(packed_body(active), options);
                const Program fast = build_program(co, co.kernels.at(0));
                Program general = build_program(co, co.kernels.at(0));
                use_general_paths(general);
                // The fast program has direct packed steps, in runs, and steps left to pk_f32.
                std::size_t direct = 0, other = 0;
                for (std::size_t i = 0; i < fast.insts.size(); ++i)
                    if (fast.insts[i].op == Op::v_pk_fma_f32)
                        ++(fast.multiply_add_steps[i].kind == MultiplyAddStep::Kind::direct ? direct : other);
                CHECK(direct > 8);
                CHECK(other > 4);
                CHECK(std::any_of(fast.code.begin(), fast.code.end(),
                                  [](const ExecInst& e) { return e.multiply_add_run > 8; }));
                ++seed;
                const std::vector<std::uint32_t> expected = run_program(general, 18, seed);
                const std::vector<std::uint32_t> got = run_program(fast, 18, seed);
                for (std::size_t i = 0; i < expected.size(); ++i) {
                    INFO("stored register " << i / 64 << " lane " << i % 64);
                    REQUIRE(got[i] == expected[i]);
                }
            }
}

// Raw-buffer and global loads and stores (sem_memory.cpp): the direct path
// (64 lanes at once, whole aligned lanes in single word accesses) against the
// lane-by-lane path, which an observer of global memory forces. dword,
// dwordx2 and dwordx4 at aligned and misaligned addresses, buffer ranges that
// cut between lanes and inside a lane's dwords, all or some lanes active; the
// stored bytes and the loaded registers (stored too) must be the same.
namespace {

// Watches every global access, so every access takes the lane-by-lane path.
struct GlobalMemoryWatcher : DispatchObserver {
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override { return std::make_unique<WorkgroupObserver>(); }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};

// `program` run twice on `input` in p1 and `values` in u0..u3: [0] on the
// direct path, [1] with a GlobalMemoryWatcher (lane by lane); the first
// `dwords` of p0 afterwards and the counters.
struct DirectAndLaneByLane {
    std::vector<std::uint32_t> results[2];
    Counters counters[2];
};
DirectAndLaneByLane run_direct_and_lane_by_lane(const Program& program, const std::vector<std::uint32_t>& input,
                                                std::array<std::uint32_t, 4> values, std::size_t dwords) {
    DirectAndLaneByLane out;
    for (const bool watched : {false, true}) {
        TestRun run(input.size());
        run.fill(1, input);
        run.value = values;
        GlobalMemoryWatcher watcher;
        if (watched) run.observer = &watcher;
        const DispatchResult r = run.run(program);
        INFO((r.fault ? r.fault->message : std::string()));
        REQUIRE(r.ok());
        out.results[watched] = run.read(0, dwords);
        out.counters[watched] = r.counters;
    }
    return out;
}

// A loop of `trips` trips, each storing `per_trip` dwords of p0, over an
// input p1 of `dwords` counting dwords (0x10000 + i): run with and without
// a watcher of global memory (the direct and the lane-by-lane paths), the
// two equal in every stored dword and every counter. The direct run's
// stores.
std::vector<std::uint32_t> repeated_loads_agree(const std::string& body, std::size_t dwords, std::size_t trips,
                                                std::size_t per_trip) {
    std::vector<std::uint32_t> input(dwords);
    for (std::size_t i = 0; i < dwords; ++i) input[i] = 0x10000u + std::uint32_t(i);
    const CodeObject co = assemble_kernel(body);
    const Program program = build_program(co, co.kernels.at(0));
    const auto [results, counters] = run_direct_and_lane_by_lane(program, input, {4096, 4096, 0, 0}, trips * per_trip);
    CHECK(counters[0] == counters[1]);
    for (std::size_t i = 0; i < trips * per_trip; ++i) {
        INFO("trip " << i / per_trip << " dword " << i % per_trip);
        REQUIRE(results[0][i] == results[1][i]);
    }
    return results[0];
}

// Segment i of p0 (1 KiB each) gets what one load and store pair leaves.
// Buffer loads read p1 through a V# of u0 records, stores write p0 through
// one of u1 records; global ones read and write the same addresses.
std::string memory_body(unsigned active_lanes) {
    std::ostringstream s;
    s << "  s_mov_b32 s20, s6\n  s_and_b32 s21, s7, 0xffff\n  s_mov_b32 s22, s12\n  s_mov_b32 s23, 0x00020000\n"
      << "  s_mov_b32 s24, s4\n  s_and_b32 s25, s5, 0xffff\n  s_mov_b32 s26, s13\n  s_mov_b32 s27, 0x00020000\n"
      << "  v_lshlrev_b32 v3, 2, v1\n  v_mov_b32 v20, 0\n";  // v3: 16 bytes per lane
    if (active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
    const char* widths[] = {"dword", "dwordx2", "dwordx4"};
    const char* regs[] = {"v4", "v[4:5]", "v[4:7]"};
    for (unsigned w = 0; w < 3; ++w)
        for (const unsigned offset : {0u, 4u, 8u}) {
            s << "  v_mov_b32 v4, -1\n  v_mov_b32 v5, -1\n  v_mov_b32 v6, -1\n  v_mov_b32 v7, -1\n"
              << "  buffer_load_" << widths[w] << " " << regs[w] << ", v3, s[20:23], 0 offen offset:" << offset
              << "\n  s_waitcnt vmcnt(0)\n"
              << "  buffer_store_" << widths[w] << " " << regs[w] << ", v3, s[24:27], 0 offen offset:" << offset
              << "\n  s_add_u32 s24, s24, 1024\n  s_addc_u32 s25, s25, 0\n";
            // The same through global_*: v[20:21] = p1 + v3 + offset, stored at p0's segment.
            s << "  v_add_co_u32 v20, vcc, s6, v3\n  v_mov_b32 v21, s7\n  v_addc_co_u32 v21, vcc, 0, v21, vcc\n"
              << "  global_load_" << widths[w] << " " << regs[w] << ", v[20:21], off offset:" << offset
              << "\n  s_waitcnt vmcnt(0)\n"
              << "  v_add_co_u32 v20, vcc, s24, v3\n  v_mov_b32 v21, s25\n  v_addc_co_u32 v21, vcc, 0, v21, vcc\n"
              << "  global_store_" << widths[w] << " v[20:21], " << regs[w] << ", off offset:" << offset
              << "\n  s_add_u32 s24, s24, 1024\n  s_addc_u32 s25, s25, 0\n";
        }
    return s.str();
}

}  // namespace

TEST_CASE("global and raw-buffer accesses: the direct path equals the lane-by-lane path", "[exec][fast_paths]") {
    constexpr std::size_t segments = 18, dwords = segments * 256 + 8;  // the last store runs 24 bytes past its segment
    std::vector<std::uint32_t> input(dwords);
    for (std::size_t i = 0; i < dwords; ++i) input[i] = 0x10000u + std::uint32_t(i);
    for (const unsigned active : {64u, 45u}) {
        const CodeObject co = assemble_kernel(memory_body(active));
        const Program program = build_program(co, co.kernels.at(0));
        // Records: every lane in range; a cut inside lane 31's dwordx4 (500);
        // a cut at a lane boundary for dwords (256) and inside a lane for x2 (260).
        for (const std::uint32_t records : {4096u, 500u, 256u, 260u}) {
            INFO("active lanes " << active << ", num_records " << records);
            const auto [results, counters] =
                run_direct_and_lane_by_lane(program, input, {records, records + 200, 0, 0}, dwords);
            CHECK(counters[0] == counters[1]);
            CHECK(counters[0].global_read_bytes > 0);
            for (std::size_t i = 0; i < dwords; ++i) {
                INFO("segment " << i / 256 << " dword " << i % 256);
                REQUIRE(results[0][i] == results[1][i]);
            }
            // Not vacuous: loaded values arrived.
            CHECK(std::count_if(results[0].begin(), results[0].end(), [](std::uint32_t v) { return v >= 0x10000u; }) >
                  0);
        }
    }
}

// Raw-buffer dword loads whose lanes read consecutive dwords (sem_memory.cpp
// moves four such lanes at a 16-byte aligned host address in one load):
// every lane contiguous, runs of eight at a stride (a k-contiguous GEMM
// operand), quads reversed, one lane out of its run, every run whole but one
// at a host address that is not 16-byte aligned, at instruction offsets
// that keep or break the 16-byte alignment, all or some lanes active and
// buffer ranges that cut the wave, against the lane-by-lane path.
namespace {

std::string consecutive_lanes_body(unsigned active_lanes) {
    const char* patterns[] = {
        "  v_lshlrev_b32 v3, 2, v0\n",  // lane l at 4 l
        "  v_lshrrev_b32 v8, 3, v0\n  v_lshlrev_b32 v8, 8, v8\n  v_and_b32 v9, 7, v0\n"
        "  v_lshl_add_u32 v3, v9, 2, v8\n",                    // 256 (l / 8) + 4 (l % 8)
        "  v_xor_b32 v8, 3, v0\n  v_lshlrev_b32 v3, 2, v8\n",  // 4 (l ^ 3)
        "  v_lshlrev_b32 v3, 2, v0\n  v_cmp_eq_u32 vcc, 5, v0\n  v_mov_b32 v10, 0xa0\n  v_cndmask_b32 v3, v3, v10, "
        "vcc\n",  // lane 5 at 160
        "  v_lshlrev_b32 v3, 2, v0\n  v_subrev_u32 v10, 12, v0\n  v_cmp_gt_u32 vcc, 4, v10\n  v_add_u32 v10, 4, v3\n"
        "  v_cndmask_b32 v3, v3, v10, vcc\n",  // lanes 12-15 at 4 l + 4: every run whole, one of them misaligned
    };
    std::ostringstream s;
    s << "  s_mov_b32 s20, s6\n  s_and_b32 s21, s7, 0xffff\n  s_mov_b32 s22, s12\n  s_mov_b32 s23, 0x00020000\n"
      << "  s_mov_b32 s24, s4\n  s_and_b32 s25, s5, 0xffff\n  s_mov_b32 s26, s13\n  s_mov_b32 s27, 0x00020000\n";
    if (active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
    for (const char* pattern : patterns)
        for (const unsigned offset : {0u, 4u, 16u}) {
            s << pattern << "  v_mov_b32 v4, -1\n"
              << "  buffer_load_dword v4, v3, s[20:23], 0 offen offset:" << offset << "\n  s_waitcnt vmcnt(0)\n"
              << "  buffer_store_dword v4, v1, s[24:27], 0 offen\n"
              << "  s_add_u32 s24, s24, 256\n  s_addc_u32 s25, s25, 0\n";
        }
    return s.str();
}

}  // namespace

TEST_CASE("raw-buffer loads of consecutive lanes: the direct path equals the lane-by-lane path", "[exec][fast_paths]") {
    constexpr std::size_t segments = 15, dwords = 1024;  // loads read below 2 KiB, stores write 15 x 256 bytes
    std::vector<std::uint32_t> input(dwords);
    for (std::size_t i = 0; i < dwords; ++i) input[i] = 0x10000u + std::uint32_t(i);
    for (const unsigned active : {64u, 45u}) {
        const CodeObject co = assemble_kernel(consecutive_lanes_body(active));
        const Program program = build_program(co, co.kernels.at(0));
        // Records: every lane in range; a cut inside the wave (lane 25 of the contiguous lanes).
        for (const std::uint32_t records : {4096u, 100u}) {
            INFO("active lanes " << active << ", num_records " << records);
            const auto [results, counters] =
                run_direct_and_lane_by_lane(program, input, {records, 4096, 0, 0}, segments * 64);
            CHECK(counters[0] == counters[1]);
            for (std::size_t i = 0; i < segments * 64; ++i) {
                INFO("segment " << i / 64 << " lane " << i % 64);
                REQUIRE(results[0][i] == results[1][i]);
            }
            // The values each lane should have read, where it did: lane 0 of
            // the contiguous pattern at offset 16 reads dword 4 (16 < records).
            CHECK(results[0][2 * 64] == 0x10004u);
            if (records == 4096u) {
                // Runs of eight at offset 0: lane 9 reads dword 64 + 1; quads reversed: lane 0 dword 3.
                CHECK(results[0][3 * 64 + 9] == 0x10000u + 65u);
                CHECK(results[0][6 * 64] == 0x10003u);
                // Lane 5 out of its run reads dword 40, lane 6 dword 6.
                CHECK(results[0][9 * 64 + 5] == 0x10000u + 40u);
                CHECK(results[0][9 * 64 + 6] == 0x10006u);
                // Lanes 12-15 one dword further at offset 16: lane 12 reads dword 4 + 13, lane 16 dword 4 + 16.
                CHECK(results[0][14 * 64 + 12] == 0x10000u + 17u);
                CHECK(results[0][14 * 64 + 16] == 0x10000u + 20u);
            }
        }
    }
}

// The same raw-buffer dword load run seven times in a loop (sem_memory.cpp
// keeps each instruction's lane offsets and their spread per wave, and
// reuses the spread while the offsets stay the same): the descriptor's base
// moving each trip, offsets that stay (a hit), change (quads reversed),
// stay while num_records cuts the wave at 100 bytes, stay with 45 lanes
// active, then shift by a dword (runs no longer 16-byte aligned) and stay
// again; against the lane-by-lane path.
namespace {

std::string repeated_load_body() {
    std::ostringstream s;
    s << "  s_mov_b32 s20, s6\n  s_and_b32 s21, s7, 0xffff\n  s_mov_b32 s22, s12\n  s_mov_b32 s23, 0x00020000\n"
      << "  s_mov_b32 s24, s4\n  s_and_b32 s25, s5, 0xffff\n  s_mov_b32 s26, s13\n  s_mov_b32 s27, 0x00020000\n"
      << "  v_lshlrev_b32 v3, 2, v0\n  s_mov_b32 s30, 0\n"
      << ".Ltrip:\n  v_mov_b32 v4, -1\n  buffer_load_dword v4, v3, s[20:23], 0 offen\n  s_waitcnt vmcnt(0)\n"
      << "  buffer_store_dword v4, v1, s[24:27], 0 offen\n"
      << "  s_add_u32 s24, s24, 256\n  s_addc_u32 s25, s25, 0\n  s_add_u32 s20, s20, 64\n  s_addc_u32 s21, s21, 0\n"
      << "  s_add_u32 s30, s30, 1\n"
      << "  s_cmp_eq_u32 s30, 2\n  s_cbranch_scc0 .Lkeep2\n  v_xor_b32 v3, 12, v3\n.Lkeep2:\n"
      << "  s_cmp_eq_u32 s30, 3\n  s_cbranch_scc0 .Lkeep3\n  s_mov_b32 s22, 100\n.Lkeep3:\n"
      << "  s_cmp_eq_u32 s30, 4\n  s_cbranch_scc0 .Lkeep4\n  s_mov_b32 s22, s12\n  v_cmpx_gt_u32 vcc, 45, "
         "v0\n.Lkeep4:\n"
      << "  s_cmp_eq_u32 s30, 5\n  s_cbranch_scc0 .Lkeep5\n  s_mov_b64 exec, -1\n  v_add_u32 v3, 4, v3\n.Lkeep5:\n"
      << "  s_cmp_lt_u32 s30, 7\n  s_cbranch_scc1 .Ltrip\n";
    return s.str();
}

}  // namespace

TEST_CASE("a raw-buffer load repeated in a loop: the direct path equals the lane-by-lane path", "[exec][fast_paths]") {
    const std::vector<std::uint32_t> stored = repeated_loads_agree(repeated_load_body(), 1024, 7, 64);
    // Trip t reads from dword 16 t on: lane l at 4 l, then at 4 (l ^ 3).
    CHECK(stored[0 * 64 + 5] == 0x10000u + 5u);
    CHECK(stored[1 * 64 + 5] == 0x10000u + 16u + 5u);
    CHECK(stored[2 * 64 + 5] == 0x10000u + 32u + 6u);
    // Trip 3: 100 records, lanes at offsets from 100 on (lane 24 at 108) read 0.
    CHECK(stored[3 * 64 + 20] == 0x10000u + 48u + 23u);
    CHECK(stored[3 * 64 + 24] == 0u);
    // Trip 4: lanes from 45 on inactive, nothing stored for them.
    CHECK(stored[4 * 64 + 44] == 0x10000u + 64u + 47u);
    CHECK(stored[4 * 64 + 45] == 0u);
    // Trips 5 and 6: one dword further.
    CHECK(stored[5 * 64 + 5] == 0x10000u + 80u + 7u);
    CHECK(stored[6 * 64 + 5] == 0x10000u + 96u + 7u);
}

// LDS reads and writes (sem_lds.cpp): the repeated whole access (every lane
// active, the lane pattern the instruction's conflict memo holds, bounds from
// the memo's largest relative address) against the general path, which an
// observer forces. Each access runs three times in a loop at a moving base,
// so that the memo holds its pattern from the second time on: b32, b64, b96
// and b128 reads and writes at aligned, byte-misaligned, conflicting (one
// bank), broadcast (by row), rows repeating the first and reversed lane
// patterns, addresses that pass 2^32 (every lane, or all but lane 0), all
// or some lanes active, and a read whose address VGPR the counter's limit
// lands in. Results, LDS contents and every counter must be the same; an
// access that leaves the LDS must fault the same.
namespace {

struct LdsPattern {
    const char* name;
    std::string setup;  // leaves lane l's base address in v10
    unsigned offset;
    unsigned step;  // added to v10 after each time
};

std::vector<LdsPattern> lds_patterns(unsigned width) {
    const std::string w = std::to_string(width);
    return {
        {"aligned", "  v_mul_u32_u24 v10, " + w + ", v0\n", 16, 512},
        {"misaligned", "  v_mul_u32_u24 v10, " + w + ", v0\n  v_add_u32 v10, 1, v10\n", 2, 260},
        {"one bank", "  v_lshlrev_b32 v10, 6, v0\n", 0, 4},
        {"broadcast", "  v_lshrrev_b32 v10, 4, v0\n  v_mul_u32_u24 v10, " + w + ", v10\n", 8, 36},
        {"rows repeat", "  v_and_b32 v10, 15, v0\n  v_mul_u32_u24 v10, " + w + ", v10\n", 4, 128},
        {"reversed", "  v_xor_b32 v10, 63, v0\n  v_mul_u32_u24 v10, " + w + ", v10\n", 0, 1024},
        // Lanes j, j + 8, ..., j + 56 at consecutive dwords from (j % 8) x
        // stride: the 32x32 kernels' B write (stride 144), whose eight runs
        // of eight dwords share no byte, and one whose runs overlap (stride
        // 20 bytes), which must not be written run after run.
        {"runs of eight",
         "  v_and_b32 v11, 7, v0\n  v_mul_u32_u24 v11, 144, v11\n  v_lshrrev_b32 v10, 3, v0\n"
         "  v_lshl_add_u32 v10, v10, 2, v11\n",
         4, 16},
        {"runs of eight overlapping",
         "  v_and_b32 v11, 7, v0\n  v_mul_u32_u24 v11, 20, v11\n  v_lshrrev_b32 v10, 3, v0\n"
         "  v_lshl_add_u32 v10, v10, 2, v11\n",
         6, 8},
        {"past 2^32, every lane", "  v_mul_u32_u24 v10, " + w + ", v0\n  v_add_u32 v10, 0xffffff00, v10\n", 0x200, 16},
        {"past 2^32 but lane 0",
         "  v_mul_u32_u24 v10, " + w +
             ", v0\n  v_add_u32 v10, 0xfffff000, v10\n  v_mov_b32 v11, 0x100\n"
             "  v_cmp_eq_u32 vcc, 0, v0\n  v_cndmask_b32 v10, v10, v11, vcc\n",
         0x1000, 64},
    };
}

const char* lds_bits(unsigned width) { return width == 4 ? "b32" : width == 8 ? "b64" : width == 12 ? "b96" : "b128"; }
const char* lds_regs(unsigned width) {
    return width == 4 ? "v12" : width == 8 ? "v[12:13]" : width == 12 ? "v[12:14]" : "v[12:15]";
}

// Every access of lds_patterns at every width, read (each result stored to
// its 1 KiB segment of p0, 16 bytes per lane) and written (the LDS dumped to
// p1 at the end). 8 KiB of LDS, filled first with 0x10000 + dword index.
std::string lds_body(unsigned active_lanes) {
    std::ostringstream s;
    unsigned label = 0;
    s << "  v_add_u32 v3, 0x10000, v0\n  v_mov_b32 v2, v1\n  s_mov_b32 s20, 32\n.Lfill:\n"
      << "  ds_write_b32 v2, v3\n  v_add_u32 v2, 256, v2\n  v_add_u32 v3, 64, v3\n"
      << "  s_sub_u32 s20, s20, 1\n  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lfill\n  s_waitcnt lgkmcnt(0)\n"
      << "  v_lshlrev_b32 v4, 4, v0\n";  // v4: 16 bytes per lane
    if (active_lanes < 64) s << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
    for (const unsigned width : {4u, 8u, 12u, 16u})
        for (const LdsPattern& p : lds_patterns(width)) {
            s << p.setup << "  s_mov_b32 s20, 3\n.Lread" << label << ":\n"
              << "  v_mov_b32 v12, -1\n  v_mov_b32 v13, -1\n  v_mov_b32 v14, -1\n  v_mov_b32 v15, -1\n"
              << "  ds_read_" << lds_bits(width) << " " << lds_regs(width) << ", v10 offset:" << p.offset << "\n"
              << "  s_waitcnt lgkmcnt(0)\n  global_store_dwordx4 v4, v[12:15], s[4:5]\n"
              << "  s_add_u32 s4, s4, 1024\n  s_addc_u32 s5, s5, 0\n  v_add_u32 v10, " << p.step << ", v10\n"
              << "  s_sub_u32 s20, s20, 1\n  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lread" << label << "\n";
            ++label;
        }
    for (const unsigned width : {4u, 8u, 12u, 16u})
        for (const LdsPattern& p : lds_patterns(width)) {
            s << p.setup << "  s_mov_b32 s20, 3\n  v_add_u32 v12, 0x20000, v0\n.Lwrite" << label << ":\n"
              << "  v_add_u32 v12, 0x100, v12\n  v_not_b32 v13, v12\n  v_xor_b32 v14, 0x5555, v12\n"
              << "  v_lshlrev_b32 v15, 8, v12\n"
              << "  ds_write_" << lds_bits(width) << " v10, " << lds_regs(width) << " offset:" << p.offset << "\n"
              << "  v_add_u32 v10, " << p.step << ", v10\n"
              << "  s_sub_u32 s20, s20, 1\n  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lwrite" << label << "\n";
            ++label;
        }
    // 16 reads in flight: the last one's issue lands the first, which loads
    // its address register v20 (the address is read before).
    s << "  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v20, v1\n  v_mov_b32 v21, v1\n  s_mov_b32 s20, 2\n.Llimit:\n"
      << "  ds_read_b32 v20, v21 offset:4\n";
    for (unsigned i = 0; i < 14; ++i) s << "  ds_read_b32 v" << 22 + i << ", v21 offset:" << 8 + 4 * i << "\n";
    s << "  ds_read_b32 v40, v20\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v40, s[4:5]\n"
      << "  s_add_u32 s4, s4, 256\n  s_addc_u32 s5, s5, 0\n  v_mov_b32 v20, v1\n"
      << "  s_sub_u32 s20, s20, 1\n  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Llimit\n";
    // The LDS, dword i at p1's dword i.
    s << "  s_waitcnt lgkmcnt(0)\n  s_mov_b64 exec, -1\n  v_mov_b32 v2, v1\n  s_mov_b32 s20, 32\n.Ldump:\n"
      << "  ds_read_b32 v3, v2\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v3, s[6:7]\n"
      << "  s_add_u32 s6, s6, 256\n  s_addc_u32 s7, s7, 0\n  v_add_u32 v2, 256, v2\n"
      << "  s_sub_u32 s20, s20, 1\n  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Ldump\n";
    return s.str();
}

// Records every LDS access an observer is given, so that the two paths can
// be compared as the checkers and the trace recorder see them. Pattern ids
// are unique in the process, not per run: each becomes the order in which
// its pattern first appeared.
struct LdsAccessRecord {
    std::uint32_t inst;
    bool write;
    std::uint64_t lanes;
    std::uint32_t bytes, per_lane, pattern;
    std::vector<std::uint64_t> addresses;  // every active lane's, element by element
    bool operator==(const LdsAccessRecord& o) const {
        return inst == o.inst && write == o.write && lanes == o.lanes && bytes == o.bytes && per_lane == o.per_lane &&
               pattern == o.pattern && addresses == o.addresses;
    }
};
// A counter entry as issued() or landed() saw it ('i' or 'l'): the issuing
// instruction, where its result goes and on which lanes.
using EntryRecord = std::tuple<char, std::uint32_t, InFlightMemoryOp::Dest, std::uint16_t, std::uint8_t, std::uint64_t>;
struct LdsAccessLog {
    std::vector<LdsAccessRecord> records;
    std::map<std::uint64_t, std::uint32_t> pattern_order;
    std::vector<EntryRecord> entries;
};
struct LdsAccessRecorder : WorkgroupObserver {
    LdsAccessLog& log;
    bool operands_only = false;
    explicit LdsAccessRecorder(LdsAccessLog& into, bool reads_only_operands = false)
        : log(into), operands_only(reads_only_operands) {}
    bool reads_only_operands() const override { return operands_only; }
    void issued(const Wave&, const ExecInst&, const InFlightMemoryOp& p) override {
        log.entries.emplace_back('i', p.inst_index, p.dest, p.reg, p.dwords, p.lanes);
    }
    void landed(const Wave&, const InFlightMemoryOp& p) override {
        log.entries.emplace_back('l', p.inst_index, p.dest, p.reg, p.dwords, p.lanes);
    }
    void memory_access(const Wave&, const ExecInst& e, const MemoryAccess& a) override {
        if (a.space != MemoryAccess::Space::lds) return;
        LdsAccessRecord r{e.index, a.write, a.lanes, a.bytes_per_lane, a.addresses_per_lane, 0, {}};
        if (a.pattern_id)
            r.pattern = log.pattern_order.try_emplace(a.pattern_id, log.pattern_order.size() + 1).first->second;
        for (unsigned el = 0; el < a.addresses_per_lane; ++el)
            for (unsigned l = 0; l < 64; ++l)
                if ((a.lanes >> l) & 1) r.addresses.push_back(a.address_of(el, l));
        log.records.push_back(std::move(r));
    }
};
struct LdsAccessWatcher : DispatchObserver {
    LdsAccessLog log;
    bool operands_only = false;  // as the checkers: LDS reads may land at issue
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override {
        return std::make_unique<LdsAccessRecorder>(log, operands_only);
    }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};

}  // namespace

TEST_CASE("LDS reads and writes: the repeated whole access equals the general path", "[exec][lds][fast_paths]") {
    KernelOptions options;
    options.lds_bytes = 8192;
    const std::size_t reads = 4 * 10 * 3 + 2;  // widths x patterns x times, and the limit case
    for (const unsigned active : {64u, 45u}) {
        INFO("active lanes " << active);
        const CodeObject co = assemble_kernel(lds_body(active), options);
        const std::array<Program, 2> programs = fast_and_general(co);
        // Runs: fast, general, fast observed, general observed.
        std::vector<std::uint32_t> results[4], lds[4];
        Counters counters[4];
        LdsAccessWatcher watchers[2];
        for (unsigned i = 0; i < 4; ++i) {
            TestRun run(reads * 256);
            if (i >= 2) run.observer = &watchers[i - 2];
            const DispatchResult r = run.run(programs[i % 2]);
            INFO("run " << i << (r.fault ? r.fault->message : std::string()));
            REQUIRE(r.ok());
            results[i] = run.read(0, reads * 256);
            lds[i] = run.read(1, 2048);
            counters[i] = r.counters;
        }
        for (unsigned i = 1; i < 4; ++i) {
            INFO("run " << i << " against the unobserved fast one");
            for (std::size_t k = 0; k < results[0].size(); ++k) {
                INFO("read " << k / 256 << " lane " << k % 256 / 4 << " dword " << k % 4);
                REQUIRE(results[0][k] == results[i][k]);
            }
            for (std::size_t k = 0; k < lds[0].size(); ++k) {
                INFO("LDS dword " << k);
                REQUIRE(lds[0][k] == lds[i][k]);
            }
            CHECK(counters[0] == counters[i]);
        }
        // The observers saw the same accesses, lane by lane, on both paths.
        const std::vector<LdsAccessRecord>& fast = watchers[0].log.records;
        const std::vector<LdsAccessRecord>& general = watchers[1].log.records;
        REQUIRE(fast.size() == general.size());
        for (std::size_t k = 0; k < fast.size(); ++k) {
            INFO("access " << k << " at instruction " << general[k].inst);
            REQUIRE(fast[k] == general[k]);
        }
        // Not vacuous: conflicts were counted, values were read and written,
        // and accesses repeated their pattern (the fast path's condition).
        CHECK(counters[0].lds_bank_conflict_cycles > 0);
        CHECK(std::count(results[0].begin(), results[0].end(), 0x10005u) > 0);
        CHECK(std::count_if(lds[0].begin(), lds[0].end(), [](std::uint32_t v) { return v >> 16 == 2; }) > 0);
        CHECK(watchers[0].log.pattern_order.size() < fast.size());
    }
}

// The vector gathers of the repeated whole access (sem_lds.cpp: rows that
// each read one element, rows repeating row 0's consecutive quads), at every
// instruction set the host has (lds_gather_isa), against the general path:
// lds_body's "broadcast" and "rows repeat" accesses take them at b32, b64
// and b128 (the memo's vector_gather, checked here on those lane addresses).
// Likewise ds_write_b32's runs of eight (LdsConflictMemo::write_scatter):
// lds_body's "runs of eight" write takes them, its overlapping one may not.
TEST_CASE("LDS reads and writes: the vector gathers and scatters equal the general path at every instruction set",
          "[exec][lds][fast_paths]") {
    for (const unsigned stride : {144u, 20u, 32u, 28u}) {
        LdsLaneAddresses a;
        a.highest = 0;
        for (unsigned l = 0; l < 64; ++l) {
            a.byte[0][l] = 1024 + l % 8 * stride + 4 * (l / 8);
            a.highest = std::max(a.highest, a.byte[0][l]);
        }
        LdsConflictMemo memo;
        lds_bank_conflict_cycles(a, ~0ull, consecutive_lds_bank_model().passes(true, 1), memo);
        INFO("runs of eight, stride " << stride);
        CHECK((memo.write_scatter == LdsConflictMemo::WriteScatter::runs_of_eight) == (stride >= 32));
    }
    for (const unsigned width : {4u, 8u, 12u, 16u}) {
        for (const bool broadcast : {true, false}) {
            LdsLaneAddresses a;
            a.dwords_per_element = width / 4;
            a.highest = 0;
            for (unsigned l = 0; l < 64; ++l) {
                a.byte[0][l] = 4096 + (broadcast ? l / 16 : l % 16) * width;
                a.highest = std::max(a.highest, a.byte[0][l]);
            }
            LdsConflictMemo memo;
            lds_bank_conflict_cycles(a, ~0ull, consecutive_lds_bank_model().passes(false, width / 4), memo);
            INFO("width " << width << (broadcast ? " broadcast" : " rows repeat"));
            CHECK(memo.vector_gather == (width == 12 ? 0 : 1 + (broadcast ? 0 : 3) + width / 8));
        }
    }
    KernelOptions options;
    options.lds_bytes = 8192;
    const std::size_t reads = 4 * 10 * 3 + 2;
    const CodeObject co = assemble_kernel(lds_body(64), options);
    const std::array<Program, 2> programs = fast_and_general(co);
    TestRun general_run(reads * 256);
    const DispatchResult general = general_run.run(programs[1]);
    REQUIRE(general.ok());
    const LdsGatherIsa host = host_lds_gather_isa();
    for (const LdsGatherIsa isa : {LdsGatherIsa::baseline, LdsGatherIsa::avx2, LdsGatherIsa::avx512}) {
        if (unsigned(isa) > unsigned(host)) continue;
        INFO("instruction set " << unsigned(isa));
        lds_gather_isa() = isa;
        TestRun run(reads * 256);
        const DispatchResult r = run.run(programs[0]);
        lds_gather_isa() = host;
        REQUIRE(r.ok());
        CHECK(run.read(0, reads * 256) == general_run.read(0, reads * 256));
        CHECK(run.read(1, 2048) == general_run.read(1, 2048));
        CHECK(r.counters == general.counters);
    }
}

// lds_pattern_repeats_all_lanes against its definition (lane l's base
// minus lane 0's is the memo's relative[0][l]) for each row shape: rows
// repeating row 0 (the 32x32 kernels' A reads), rows of one address each
// (their B reads), and any (lane-by-lane quads): the pattern at a moving
// base, and the same with one lane moved, for every lane, the first row
// moved as a whole, a later row moved, and a row made to repeat another.
TEST_CASE("LDS memo: the row-shaped pattern tests equal the lane-by-lane definition", "[exec][lds][fast_paths]") {
    const std::map<LdsConflictMemo::Rows, std::function<std::uint32_t(unsigned)>> shapes = {
        {LdsConflictMemo::Rows::repeat, [](unsigned l) { return 8 * (l % 16) + 4096; }},
        {LdsConflictMemo::Rows::broadcast, [](unsigned l) { return 1000 * (l / 16) + 64; }},
        {LdsConflictMemo::Rows::any, [](unsigned l) { return 8 * (l % 4) + 136 * (l / 4); }},
    };
    for (const auto& [rows, address] : shapes) {
        LdsLaneAddresses a;
        a.dwords_per_element = 2;
        a.highest = 0;
        for (unsigned l = 0; l < 64; ++l) {
            a.byte[0][l] = address(l);
            a.highest = std::max(a.highest, a.byte[0][l]);
        }
        LdsConflictMemo memo;
        lds_bank_conflict_cycles(a, ~0ull, consecutive_lds_bank_model().passes(false, 2), memo);
        REQUIRE(memo.rows == rows);
        auto definition = [&](const std::uint32_t* base) {
            for (unsigned l = 0; l < 64; ++l)
                if (base[l] - base[0] != memo.relative[0][l]) return false;
            return true;
        };
        std::vector<std::array<std::uint32_t, 64>> bases;
        std::array<std::uint32_t, 64> shifted;
        for (unsigned l = 0; l < 64; ++l) shifted[l] = address(l) - 512;  // wraps below lane 0's
        bases.push_back(shifted);
        for (unsigned l = 0; l < 64; ++l) {
            bases.push_back(shifted);
            bases.back()[l] += 8;
        }
        for (const unsigned row : {0u, 2u}) {
            bases.push_back(shifted);
            for (unsigned i = 0; i < 16; ++i) bases.back()[16 * row + i] += 16;
        }
        bases.push_back(shifted);
        for (unsigned i = 0; i < 16; ++i) bases.back()[48 + i] = shifted[16 + i];
        unsigned repeats = 0;
        for (std::size_t b = 0; b < bases.size(); ++b) {
            INFO("rows " << unsigned(rows) << " base " << b);
            CHECK(lds_pattern_repeats_all_lanes(bases[b].data(), memo) == definition(bases[b].data()));
            repeats += definition(bases[b].data());
        }
        // Not vacuous: the shifted pattern repeats, and the last row copied
        // from row 1 where every row repeats row 0; nothing else does.
        CHECK(repeats == (rows == LdsConflictMemo::Rows::repeat ? 2u : 1u));
    }
}

// ds_write_b32's runs of eight (sem_lds.cpp scatter_runs_of_eight) at every
// instruction set the host has, against the general path, on its own: in
// lds_body later writes cover what these leave. Three writes at a moving
// base with new data each time, the LDS dumped after them; with runs 20
// bytes apart (overlapping: lane order decides, so not run after run), at
// 144 (the 32x32 kernels' B write) and at 32 (runs that just touch),
// aligned and not.
TEST_CASE("LDS writes: runs of eight equal the general path at every instruction set", "[exec][lds][fast_paths]") {
    KernelOptions options;
    options.lds_bytes = 8192;
    for (const unsigned stride : {144u, 20u, 32u})
        for (const unsigned offset : {4u, 6u}) {
            INFO("stride " << stride << " offset " << offset);
            std::ostringstream s;
            s << "  v_and_b32 v11, 7, v0\n  v_mul_u32_u24 v11, " << stride
              << ", v11\n  v_lshrrev_b32 v10, 3, v0\n  v_lshl_add_u32 v10, v10, 2, v11\n"
              << "  s_mov_b32 s20, 3\n  v_add_u32 v12, 0x20000, v0\n.Lwrite:\n  v_add_u32 v12, 0x100, v12\n"
              << "  ds_write_b32 v10, v12 offset:" << offset << "\n  v_add_u32 v10, 12, v10\n"
              << "  s_sub_u32 s20, s20, 1\n  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lwrite\n"
              << "  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v2, v1\n  s_mov_b32 s20, 32\n.Ldump:\n"
              << "  ds_read_b32 v3, v2\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v3, s[6:7]\n"
              << "  s_add_u32 s6, s6, 256\n  s_addc_u32 s7, s7, 0\n  v_add_u32 v2, 256, v2\n"
              << "  s_sub_u32 s20, s20, 1\n  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Ldump\n";
            const CodeObject co = assemble_kernel(s.str(), options);
            const std::array<Program, 2> programs = fast_and_general(co);
            TestRun general_run(2048);
            const DispatchResult general = general_run.run(programs[1]);
            REQUIRE(general.ok());
            const std::vector<std::uint32_t> expected = general_run.read(1, 2048);
            // Not vacuous: the last write's lanes are in the LDS (aligned: whole;
            // overlapping runs: the higher lanes' dwords).
            CHECK(std::count_if(expected.begin(), expected.end(), [&](std::uint32_t v) {
                      return offset % 4 ? v != 0 : v >> 8 == 0x203;
                  }) >= (stride >= 32 ? 64 : 32));
            const LdsGatherIsa host = host_lds_gather_isa();
            for (const LdsGatherIsa isa : {LdsGatherIsa::baseline, LdsGatherIsa::avx2, LdsGatherIsa::avx512}) {
                if (unsigned(isa) > unsigned(host)) continue;
                INFO("instruction set " << unsigned(isa));
                lds_gather_isa() = isa;
                TestRun run(2048);
                const DispatchResult r = run.run(programs[0]);
                lds_gather_isa() = host;
                REQUIRE(r.ok());
                CHECK(run.read(1, 2048) == expected);
                CHECK(r.counters == general.counters);
            }
        }
}

TEST_CASE("LDS reads and writes leaving the LDS fault the same on both paths", "[exec][lds][fast_paths]") {
    KernelOptions options;
    options.lds_bytes = 8192;
    // The first time is inside (lanes up to 8024), the second leaves it at lane 37 (7600 + 37 * 16 = 8192).
    for (const char* op : {"ds_read_b128 v[12:15], v10", "ds_write_b128 v10, v[12:15]"}) {
        INFO(op);
        const CodeObject co = assemble_kernel(std::string("  v_lshlrev_b32 v10, 4, v0\n  v_add_u32 v10, 7000, v10\n"
                                                          "  s_mov_b32 s20, 3\n.Lloop:\n  ") +
                                                  op +
                                                  "\n  v_add_u32 v10, 600, v10\n  s_sub_u32 s20, s20, 1\n"
                                                  "  s_cmp_eq_u32 s20, 0\n  s_cbranch_scc0 .Lloop\n",
                                              options);
        const std::array<Program, 2> programs = fast_and_general(co);
        std::optional<Fault> faults[2];
        for (const unsigned general : {0u, 1u}) {
            TestRun run(64);
            faults[general] = run.run(programs[general]).fault;
        }
        REQUIRE(faults[0]);
        REQUIRE(faults[1]);
        CHECK(faults[0]->message == faults[1]->message);
        CHECK(faults[0]->address == 8192);
    }
}

// LDS reads landing at issue (ExecInst::lds_lands_at_issue) and accesses
// whose address VGPR the access before checked (lds_address_verifier),
// against the general path, with and without an observer. Each time round
// the loop: reads that may land at issue (A, B), reads the analysis must
// refuse (R1: its destination read before the wait; R2: a branch around
// the wait; R3: an older global load into the same register still in
// flight, retired first), and a chain of reads through v11 whose lane
// pattern changes between the second and the third time round and, within
// a time, after a write to v11 (V3 has no verifier).
namespace {

const char* const landing_body = R"(
  v_add_u32 v3, 0x10000, v0
  v_mov_b32 v2, v1
  s_mov_b32 s20, 32
.Lfill:
  ds_write_b32 v2, v3
  v_add_u32 v2, 256, v2
  v_add_u32 v3, 64, v3
  s_sub_u32 s20, s20, 1
  s_cmp_eq_u32 s20, 0
  s_cbranch_scc0 .Lfill
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v10, 3, v0
  v_mov_b32 v12, -1
  v_mov_b32 v16, -1
  v_mov_b32 v18, -1
  v_mov_b32 v24, -1
  s_mov_b32 s20, 4
.Lloop:
  s_cmp_lt_u32 s20, 3
  s_cselect_b32 s21, 8, 4
  v_mul_u32_u24 v11, s21, v0
  ds_read_b64 v[12:13], v10 offset:0
  ds_read_b64 v[14:15], v10 offset:512
  v_add_u32 v30, 1, v31
  s_waitcnt lgkmcnt(1)
  v_mov_b32 v32, v12
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v33, v16
  ds_read_b64 v[16:17], v10 offset:1024
  v_mov_b32 v35, v16
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[18:19], v10 offset:1536
  s_cmp_eq_u32 s20, 2
  s_cbranch_scc1 .Lskip
  s_waitcnt lgkmcnt(0)
.Lskip:
  v_mov_b32 v34, v18
  s_waitcnt lgkmcnt(0)
  global_load_dword v24, v1, s[6:7]
  ds_read_b32 v24, v10 offset:2048
  s_waitcnt vmcnt(0)
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v40, v11 offset:0
  ds_read_b32 v41, v11 offset:256
  v_add_u32 v11, v0, v11
  ds_read_b32 v42, v11 offset:512
  ds_read_b32 v43, v11 offset:768
  s_waitcnt lgkmcnt(0)
  v_add_u32 v10, 16, v10
  v_mov_b32 v50, v24
  v_mov_b32 v51, v35
  v_mov_b32 v52, v40
  v_mov_b32 v53, v41
  v_mov_b32 v54, v42
  v_mov_b32 v55, v43
  global_store_dwordx4 v4, v[12:15], s[4:5]
  global_store_dwordx4 v4, v[16:19], s[4:5] offset:1024
  global_store_dwordx4 v4, v[30:33], s[4:5] offset:2048
  global_store_dwordx4 v4, v[34:37], s[4:5] offset:3072
  v_add_u32 v4, 4096, v4
  global_store_dwordx4 v4, v[50:53], s[4:5]
  global_store_dwordx2 v4, v[54:55], s[4:5] offset:1024
  v_add_u32 v4, 2048, v4
  s_sub_u32 s20, s20, 1
  s_cmp_eq_u32 s20, 0
  s_cbranch_scc0 .Lloop
)";

std::uint32_t instruction_at(const Program& p, const std::string& text) {
    for (std::uint32_t i = 0; i < p.insts.size(); ++i)
        if (p.disassemble(i) == text) return i;
    FAIL("no instruction " << text);
    return 0;
}

bool lands_at_issue(const Program& p, const std::string& text) {
    return p.code[instruction_at(p, text)].lds_lands_at_issue;
}

}  // namespace

TEST_CASE("LDS reads landing at issue and verified addresses equal the general path", "[exec][lds][fast_paths]") {
    KernelOptions options;
    options.lds_bytes = 8192;
    const CodeObject co = assemble_kernel(std::string("  v_lshlrev_b32 v4, 4, v0\n") + landing_body, options);
    const std::array<Program, 2> programs = fast_and_general(co);
    const Program& p = programs[0];
    // What the analyses found.
    CHECK(lands_at_issue(p, "ds_read_b64 v[12:13], v10"));
    CHECK(lands_at_issue(p, "ds_read_b64 v[14:15], v10 offset:512"));
    CHECK_FALSE(lands_at_issue(p, "ds_read_b64 v[16:17], v10 offset:1024"));
    CHECK_FALSE(lands_at_issue(p, "ds_read_b64 v[18:19], v10 offset:1536"));
    CHECK_FALSE(lands_at_issue(p, "ds_read_b32 v24, v10 offset:2048"));
    CHECK(lands_at_issue(p, "ds_read_b32 v40, v11"));
    const auto verifier = [&](const char* text) { return p.code[instruction_at(p, text)].lds_address_verifier; };
    // The loop's first read through v10: the last one of the trip before
    // verifies it (v10 has only had 16 added since), none on the first trip.
    CHECK(verifier("ds_read_b64 v[12:13], v10") == instruction_at(p, "ds_read_b32 v24, v10 offset:2048") + 1);
    CHECK(p.code[instruction_at(p, "ds_read_b64 v[12:13], v10")].lds_loop_slot() ==
          p.code[instruction_at(p, "ds_read_b32 v24, v10 offset:2048")].lds_verifier_slot());
    CHECK(verifier("ds_read_b32 v40, v11") == 0);  // v11 is multiplied afresh each trip
    CHECK(verifier("ds_read_b64 v[14:15], v10 offset:512") == instruction_at(p, "ds_read_b64 v[12:13], v10") + 1);
    CHECK(verifier("ds_read_b32 v41, v11 offset:256") == instruction_at(p, "ds_read_b32 v40, v11") + 1);
    CHECK(verifier("ds_read_b32 v42, v11 offset:512") == 0);
    CHECK(verifier("ds_read_b32 v43, v11 offset:768") == instruction_at(p, "ds_read_b32 v42, v11 offset:512") + 1);
    for (const ExecInst& e : programs[1].code) {
        CHECK_FALSE(e.lds_lands_at_issue);
        CHECK(e.lds_address_verifier == 0);
    }

    // Runs: fast, general, fast observed, general observed, then both
    // observed by one that reads only operands (as the checkers: the fast
    // one's reads land at issue observed too).
    constexpr std::size_t dwords = 4 * 1536;
    std::vector<std::uint32_t> results[6];
    Counters counters[6];
    LdsAccessWatcher watchers[4];
    watchers[2].operands_only = watchers[3].operands_only = true;
    for (unsigned i = 0; i < 6; ++i) {
        TestRun run(dwords);
        std::vector<std::uint32_t> global(64);
        for (unsigned l = 0; l < 64; ++l) global[l] = 0xabc00 + l;
        run.fill(1, global);
        if (i >= 2) run.observer = &watchers[i - 2];
        const DispatchResult r = run.run(programs[i % 2]);
        INFO("run " << i << (r.fault ? r.fault->message : std::string()));
        REQUIRE(r.ok());
        results[i] = run.read(0, dwords);
        counters[i] = r.counters;
    }
    for (unsigned i = 1; i < 6; ++i) {
        INFO("run " << i << " against the unobserved fast one");
        for (std::size_t k = 0; k < dwords; ++k) {
            INFO("time " << k / 1536 << " block " << k % 1536 / 256 << " lane " << k % 256 / 4 << " dword " << k % 4);
            REQUIRE(results[0][k] == results[i][k]);
        }
        CHECK(counters[0] == counters[i]);
    }
    for (unsigned w = 1; w < 4; ++w) {
        INFO("watcher " << w << " against the first");
        REQUIRE(watchers[0].log.records.size() == watchers[w].log.records.size());
        for (std::size_t k = 0; k < watchers[0].log.records.size(); ++k) {
            INFO("access " << k);
            REQUIRE(watchers[0].log.records[k] == watchers[w].log.records[k]);
        }
        CHECK(watchers[0].log.entries == watchers[w].log.entries);
    }
    CHECK(watchers[0].log.entries.size() > 100);
    // Not vacuous: R1 read the old v16 before its wait (-1 the first time,
    // then the previous time's value), and the time R2's wait is skipped
    // read the old v18; R3's register holds the LDS value, which landed
    // after the global load's (lane 5).
    const auto at = [&](unsigned time, unsigned block, unsigned lane, unsigned dword) {
        return results[0][time * 1536 + block * 256 + lane * 4 + dword];
    };
    const std::uint32_t lds_dword_of_lane5 = 0x10000 + 2 * 5;  // v10 = 8 lane at offset 0, the first time
    CHECK(at(0, 0, 5, 0) == lds_dword_of_lane5);
    CHECK(at(0, 3, 5, 1) == 0xffffffffu);                  // v35: v16 before R1's wait, the first time
    CHECK(at(1, 3, 5, 1) == at(0, 1, 5, 0));               // ... the second time: the first time's v16
    CHECK(at(2, 3, 5, 0) == at(1, 1, 5, 2));               // v34: v18 of the time before (wait skipped)
    CHECK(at(0, 4, 5, 0) == 0x10000u + 2048 / 4 + 2 * 5);  // v50: after lgkmcnt(0), R3's LDS value
}

// Loop verifiers (program.cpp, lds_loop_verifiers): an LDS access whose
// address VGPR only had an SGPR or a constant added since the last access
// through it, on every path, with nothing writing EXEC in between, takes
// that access's finding (Wave::lds_verified, which every access through the
// VGPR writes) instead of comparing its lanes.
// What the analysis finds, for the kinds of code between two trips; and
// runs against the general path (no verifiers) of two waves in each of
// three workgroups, whose address patterns differ (workgroup 1: every lane
// twice as far apart), one after another on one thread: a finding left over
// from the workgroup before must verify nothing (the slots start empty).
// Each lane reads back what it and its neighbour wrote, in the LDS the
// workgroup zeroed first (LDS is not cleared between workgroups, whose
// order on two threads varies).
namespace {

// The loop kernels' start: the workgroup's LDS zeroed, v10 the lanes' LDS
// addresses (4 bytes apart, 8 in workgroup 1), v20 the values to write, v30
// the sum to store.
const char* const lds_loop_prologue = R"(
  v_lshlrev_b32 v40, 2, v0
  v_mov_b32 v41, 0
  ds_write_b32 v40, v41
  ds_write_b32 v40, v41 offset:512
  ds_write_b32 v40, v41 offset:1024
  ds_write_b32 v40, v41 offset:1536
  ds_write_b32 v40, v41 offset:2048
  ds_write_b32 v40, v41 offset:2560
  ds_write_b32 v40, v41 offset:3072
  ds_write_b32 v40, v41 offset:3584
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_lshlrev_b32 v10, 2, v0
  v_lshlrev_b32 v11, 3, v0
  s_cmp_eq_u32 s2, 1
  s_cselect_b64 vcc, -1, 0
  v_cndmask_b32 v10, v10, v11, vcc
  v_add_u32 v20, 0x100, v0
  v_mov_b32 v30, 0
)";
// Their end: the trip count in s20, then each work-item's v30 to p0 (one
// dword per work-item of the grid).
const char* const lds_loop_epilogue = R"(  s_sub_u32 s20, s20, 1
  s_cmp_eq_u32 s20, 0
  s_cbranch_scc0 .Lloop
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s23, s2, 9
  v_lshlrev_b32 v31, 2, v0
  v_add_u32 v31, s23, v31
  global_store_dword v31, v30, s[4:5]
)";

// A loop kernel run on the fast and on the general program (index 0, 1):
// three workgroups of 128 work-items on `threads` host threads.
struct LdsLoopRuns {
    std::vector<std::uint32_t> results[2];
    Counters counters[2];
    std::string faults[2];  // the fault's message, or empty
};
LdsLoopRuns run_lds_loop(const std::array<Program, 2>& programs, unsigned threads) {
    LdsLoopRuns runs;
    for (unsigned i = 0; i < 2; ++i) {
        TestRun run(3 * 128);
        run.grid = {3, 1, 1};
        run.block = {128, 1, 1};
        run.threads = threads;
        const DispatchResult r = run.run(programs[i]);
        runs.faults[i] = r.fault ? r.fault->message : std::string();
        runs.results[i] = run.read(0, 3 * 128);
        runs.counters[i] = r.counters;
    }
    return runs;
}

// run_lds_loop on one thread (the waves' slots reused from workgroup to
// workgroup) and on two: no fault, and the general path's results and
// counters. Not vacuous: workgroup 1's lanes are twice as far apart as
// workgroup 0's and 2's, and their results differ.
void check_lds_loop_runs(const std::array<Program, 2>& programs) {
    for (const unsigned threads : {1u, 2u}) {
        INFO(threads << " threads");
        const LdsLoopRuns runs = run_lds_loop(programs, threads);
        INFO(runs.faults[0] << runs.faults[1]);
        REQUIRE(runs.faults[0].empty());
        REQUIRE(runs.faults[1].empty());
        CHECK(runs.results[0] == runs.results[1]);
        CHECK(runs.counters[0] == runs.counters[1]);
        CHECK(runs.results[0][5] != runs.results[0][128 + 5]);
        CHECK(runs.results[0][5] == runs.results[0][256 + 5]);
    }
}

// `between`: the code between the trip's last access through v10 and its end.
std::string loop_verifier_body(const std::string& between) {
    return std::string(lds_loop_prologue) + R"(  s_mov_b32 s20, 5
  s_mov_b32 s21, 8
.Lloop:
  ds_write_b32 v10, v20
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b64 v[12:13], v10
  s_waitcnt lgkmcnt(0)
  v_add_u32 v30, v30, v12
  v_mul_lo_u32 v13, v13, 3
  v_add_u32 v30, v30, v13
  v_add_u32 v30, v30, v10
  v_add_u32 v20, 1, v20
  s_barrier
)" + between +
           "\n" + lds_loop_epilogue;
}

}  // namespace

TEST_CASE("LDS accesses verified across a loop's trips equal the general path", "[exec][lds][fast_paths]") {
    struct Case {
        const char* between;
        const char* verifier;  // of the trip's first access, or nullptr: none
    };
    const char* const read = "ds_read_b64 v[12:13], v10";
    const Case cases[] = {
        {"  v_add_u32 v10, s21, v10", read},
        {"  v_add_u32 v10, v10, 4\n  v_subrev_u32 v10, s21, v10\n  v_add_u32 v10, 0x200, v10", read},
        {"  v_sub_u32 v10, 0x800, v10", nullptr},                        // 0x800 - v10: the lanes' order reversed
        {"  v_add_u32 v10, v0, v10", nullptr},                           // a different amount in each lane
        {"  v_mov_b32 v10, v10", nullptr},                               // any other write
        {"  s_mov_b64 exec, exec\n  v_add_u32 v10, s21, v10", nullptr},  // EXEC written
        // Every other lane moves: the lanes' pattern changes.
        {"  s_mov_b32 exec_lo, 0x55555555\n  s_mov_b32 exec_hi, 0x55555555\n  v_add_u32 v10, s21, v10\n"
         "  s_mov_b64 exec, -1",
         nullptr},
        // Another access on some trips: the slot holds what the last one
        // found; the latest in the code is named.
        {"  s_cmp_eq_u32 s20, 3\n  s_cbranch_scc1 .Lother\n  ds_write_b32 v10, v20 offset:2048\n"
         ".Lother:\n  v_add_u32 v10, s21, v10",
         "ds_write_b32 v10, v20 offset:2048"},
        // Another write on some trips: lost on that path.
        {"  s_cmp_eq_u32 s20, 3\n  s_cbranch_scc1 .Lother\n  v_add_u32 v10, v0, v10\n"
         ".Lother:\n  v_add_u32 v10, s21, v10",
         nullptr},
    };
    KernelOptions options;
    options.lds_bytes = 4096;
    for (const Case& c : cases) {
        INFO("between the trips: " << c.between);
        const CodeObject co = assemble_kernel(loop_verifier_body(c.between), options);
        const std::array<Program, 2> programs = fast_and_general(co);
        const Program& p = programs[0];
        const ExecInst& first = p.code[instruction_at(p, "ds_write_b32 v10, v20")];
        const ExecInst& last = p.code[instruction_at(p, read)];
        if (c.verifier) {
            CHECK(first.lds_address_verifier == instruction_at(p, c.verifier) + 1);
            CHECK(first.lds_loop_slot() != 0);
        } else {
            CHECK(first.lds_loop_slot() == 0);
            CHECK(first.lds_address_verifier == 0);
        }
        // The read after the barrier: verified by the write before it. Every
        // access through v10 records in the same slot.
        CHECK(last.lds_address_verifier == first.index + 1);
        CHECK(last.lds_loop_slot() != 0);
        CHECK(last.lds_verifier_slot() == last.lds_loop_slot());
        CHECK(first.lds_verifier_slot() == last.lds_loop_slot());
        check_lds_loop_runs(programs);
    }
}

// The same on random loop bodies: accesses through v10 at a few offsets,
// uniform and other changes of v10 (reversing, permuting, resetting), EXEC
// writes, barriers and branches around some of them. Whatever the analysis
// decides, the fast program must give the general one's results, counters
// and faults (a wrongly skipped comparison reads or writes the wrong lanes,
// or lets a lane's address past the LDS bounds test).
TEST_CASE("LDS accesses in random loops equal the general path", "[exec][lds][fast_paths]") {
    const char* const items[] = {
        "  ds_write_b32 v10, v20",
        "  ds_write_b32 v10, v20 offset:256",
        "  ds_read_b32 v12, v10\n  s_waitcnt lgkmcnt(0)\n  v_add_u32 v30, v30, v12",
        "  ds_read_b64 v[12:13], v10 offset:512\n  s_waitcnt lgkmcnt(0)\n  v_add_u32 v30, v30, v13",
        "  v_add_u32 v10, s21, v10",
        "  v_subrev_u32 v10, s21, v10",
        "  v_add_u32 v10, v10, 8",
        "  v_sub_u32 v10, s22, v10",
        "  v_xor_b32 v10, 4, v10",
        "  v_lshlrev_b32 v10, 2, v0",
        "  v_mov_b32 v11, v10\n  v_add_u32 v30, v30, v11",
        "  s_mov_b64 exec, exec",
        "  s_mov_b32 exec_lo, 0x55555555\n  s_mov_b32 exec_hi, 0x55555555\n  v_add_u32 v10, s21, v10\n"
        "  s_mov_b64 exec, -1",  // every other lane moves
        "  s_waitcnt lgkmcnt(0)\n  s_barrier",
        "  v_add_u32 v20, 1, v20",
    };
    constexpr unsigned item_count = sizeof items / sizeof items[0];
    KernelOptions options;
    options.lds_bytes = 4096;
    std::mt19937 rng(47);
    unsigned verified = 0;  // accesses given a loop slot, over all programs
    for (unsigned program = 0; program < 40; ++program) {
        std::string body = std::string(lds_loop_prologue) + R"(  s_mov_b32 s20, 4
  s_mov_b32 s21, 4
  s_mov_b32 s22, 0x800
.Lloop:
)";
        const unsigned length = 3 + rng() % 8;
        for (unsigned i = 0; i < length; ++i) {
            const std::string item = items[rng() % item_count];
            if (rng() % 4 == 0) {
                const std::string skip = ".Lskip" + std::to_string(i);
                body += "  s_cmp_eq_u32 s20, " + std::to_string(1 + rng() % 3) + "\n  s_cbranch_scc1 " + skip + "\n" +
                        item + "\n" + skip + ":\n";
            } else {
                body += item + "\n";
            }
        }
        body += lds_loop_epilogue;
        INFO("program " << program << ":\n" << body);
        const CodeObject co = assemble_kernel(body, options);
        const std::array<Program, 2> programs = fast_and_general(co);
        for (const ExecInst& e : programs[0].code) verified += e.lds_loop_slot() != 0;
        for (const unsigned threads : {1u, 2u}) {
            INFO(threads << " threads");
            const LdsLoopRuns runs = run_lds_loop(programs, threads);
            CHECK(runs.faults[0] == runs.faults[1]);
            if (runs.faults[0].empty()) {
                CHECK(runs.results[0] == runs.results[1]);
                CHECK(runs.counters[0] == runs.counters[1]);
            }
        }
    }
    CHECK(verified >= 10);  // not vacuous: programs with loop-verified accesses
}

// LDS-fed multiply-add blocks (program.cpp, lds_multiply_add_blocks;
// sem_lds.cpp, lds_multiply_add_block): an SGEMM k step's reads, waits and
// multiply-add runs in one call. Against the general path (no blocks), on
// one and two threads, under the random schedule (which runs instruction by
// instruction) and under an observer (told of each instruction): the
// results, every counter and any fault. A read that cannot take the
// repeated whole access's path ends the block there: the first trip, lanes
// whose addresses moved apart (at the head through v10, in the middle
// through v11), part of EXEC. A is the lanes' numbers as floats (from 256
// on), B the same scaled by 2^-130 .. 2^-137 by lane, into the fp32
// denormals in three lanes of eight: v_mac_f32 flushes those, v_fmac_f32
// keeps them (denorm mode 3). A's reads stay below B's at 2048, and no two
// lanes write the same byte: nothing races (the random schedule counts a
// multiply-add run as one step, so its interleaving differs from the
// general program's). With NaNs, A is a signaling NaN in lanes 5 mod 8 and
// +inf in lanes 6 mod 8, where B is 0: NaN results from a NaN source and
// from inf x 0 (fp::multiply_add_nan's rule).
// Blocks whose runs may wait for their reads (LdsBlockPlan, the v_mac_f32
// and v_fmac_f32 runs here) run that way with each instruction set the
// host has (sem::use_block_multiply_add_isa), and without.
namespace {

const char* const lds_block_nans = R"(  v_mov_b32 v42, 0x7fa00123
  v_mov_b32 v43, 0x7f800000
  v_mov_b32 v44, 0
  v_and_b32 v28, 7, v0
  v_cmp_eq_u32 vcc, 5, v28
  v_cndmask_b32 v21, v21, v42, vcc
  v_cmp_eq_u32 vcc, 6, v28
  v_cndmask_b32 v21, v21, v43, vcc
  v_cndmask_b32 v22, v22, v44, vcc
)";

// A about 2^-62, negative in odd lanes, and B about 2^-64: products about
// 2^-126 of both signs, whose sums often fall into the fp32 denormals
// (which v_mac_f32 flushes after each step).
const char* const lds_block_tiny = R"(  v_mov_b32 v45, -72
  v_mov_b32 v46, -70
  v_ldexp_f32 v22, v21, v45
  v_ldexp_f32 v21, v21, v46
  v_and_b32 v28, 1, v0
  v_lshlrev_b32 v28, 31, v28
  v_xor_b32 v21, v21, v28
)";

// `after`: the code after the block; `between`: before the trip's end;
// `inputs`: after A's and B's values (v21, v22) are made. `mac`'s D, A and
// B name the sum and the two multiplicands (a mac without B reads the same
// VGPR at every step, v29 from before the loop).
// `copying`: the block's first run reads v16:17 from before it (the trip
// before's last read), which a read of the block then writes.
// `before`: between the barrier and the block.
// A run of four: `mac` with D, A and B named (v24..v27 += a_i x b_j).
std::string mac_run(const std::string& mac, const char* a0, const char* a1, const char* b0, const char* b1) {
    std::string text;
    const char* const sums[4] = {"v24", "v25", "v26", "v27"};
    const char* const as[4] = {a0, a0, a1, a1};
    const char* const bs[4] = {b0, b1, b0, b1};
    for (int i = 0; i < 4; ++i) {
        std::string line = mac;
        line.replace(line.find("D"), 1, sums[i]);
        line.replace(line.find("A"), 1, as[i]);
        if (const std::size_t b = line.find("B"); b != std::string::npos) line.replace(b, 1, bs[i]);
        text += "  " + line + "\n";
    }
    return text;
}

// The end of a trip of lds_block_body: the sums into v30, the next values
// to write, a barrier.
const char* const lds_block_trip_end = R"(  v_add_u32 v30, v30, v24
  v_add_u32 v30, v30, v25
  v_add_u32 v30, v30, v26
  v_add_u32 v30, v30, v27
  v_add_u32 v20, 1, v20
  s_barrier
)";

// The block of lds_block_body: four reads, a wait, a run, two reads, a
// wait, a run, a wait, a run.
std::string four_reads_ahead(const std::string& mac) {
    return R"(  ds_read_b64 v[12:13], v10
  ds_read_b64 v[14:15], v10 offset:2048
  ds_read_b64 v[16:17], v11 offset:8
  ds_read_b64 v[18:19], v11 offset:2056
  s_waitcnt lgkmcnt(2)
)" + mac_run(mac, "v12", "v13", "v14", "v15") +
           R"(  ds_read_b64 v[12:13], v11 offset:16
  ds_read_b64 v[14:15], v11 offset:2064
  s_waitcnt lgkmcnt(2)
)" + mac_run(mac, "v16", "v17", "v18", "v19") +
           "  s_waitcnt lgkmcnt(0)\n" + mac_run(mac, "v12", "v13", "v14", "v15");
}

std::string lds_block_body(const std::string& after, const std::string& between, const std::string& mac,
                           const std::string& inputs = "", bool copying = false, const std::string& before = "") {
    const std::string copying_block = R"(  ds_read_b64 v[12:13], v10
  ds_read_b64 v[14:15], v10 offset:2048
  s_waitcnt lgkmcnt(0)
)" + mac_run(mac, "v12", "v13", "v16", "v17") +
                                      R"(  ds_read_b64 v[16:17], v11 offset:8
  ds_read_b64 v[18:19], v11 offset:2056
  s_waitcnt lgkmcnt(0)
)" + mac_run(mac, "v16", "v17", "v18", "v19");
    return std::string(lds_loop_prologue) + R"(  s_mov_b32 s20, 5
  s_mov_b32 s21, 8
  v_and_b32 v23, 7, v0
  v_sub_u32 v23, -130, v23
  s_mov_b32 s26, 0x55555555
  s_mov_b32 s27, 0x55555555
  v_mov_b32 v11, v10
  v_mov_b32 v24, 0
  v_mov_b32 v25, 0
  v_mov_b32 v26, 0
  v_mov_b32 v27, 0
  v_cvt_f32_u32 v29, v0
.Lloop:
  v_cvt_f32_u32 v21, v20
  v_ldexp_f32 v22, v21, v23
)" + inputs +
           R"(  ds_write_b32 v10, v21
  ds_write_b32 v10, v22 offset:2048
  s_waitcnt lgkmcnt(0)
  s_barrier
)" + before +
           (copying ? copying_block : four_reads_ahead(mac)) + after + "\n" + lds_block_trip_end + between + "\n" +
           lds_loop_epilogue;
}

// Told of each instruction, and nothing else.
struct CountInstructions : WorkgroupObserver {
    std::uint64_t* count = nullptr;
    void before_instruction(const Wave&, const ExecInst&) override { ++*count; }
};
struct CountEveryInstruction : DispatchObserver {
    std::array<std::uint64_t, 3> counts{};  // per workgroup
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t workgroup) override {
        auto o = std::make_unique<CountInstructions>();
        o->count = &counts.at(workgroup);
        return o;
    }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};

}  // namespace

TEST_CASE("LDS-fed multiply-add blocks equal the general path", "[exec][lds][fast_paths]") {
    struct Case {
        const char* after;  // the block
        const char* between;
        bool whole;               // the block may run whole (on the trips after the first)
        const char* before = "";  // the block
    };
    const Case cases[] = {
        {"", "  v_add_u32 v10, s21, v10\n  v_add_u32 v11, s21, v11", true},  // uniform moves
        {"", "", true},
        {"", "  v_add_u32 v10, v0, v10\n  v_add_u32 v11, v0, v11", false},  // apart at the head
        {"", "  v_add_u32 v11, v0, v11", false},                            // apart in the middle
        // Every other lane on one trip (EXEC written: v11's reads look for themselves).
        {"  s_mov_b64 exec, -1", "  s_cmp_eq_u32 s20, 3\n  s_cselect_b64 exec, s[26:27], -1", false},
        // An SMEM load outstanding on lgkmcnt as the block starts (its first
        // wait retires it), the addresses moving together.
        {"", "  v_add_u32 v10, s21, v10\n  v_add_u32 v11, s21, v11", true, "  s_load_dword s30, s[4:5], 0x0\n"},
    };
    struct Mac {
        const char* text;
        bool planned;  // the block has an LdsBlockPlan
    };
    const Mac macs[] = {{"v_mac_f32 D, A, B", true},
                        {"v_fmac_f32 D, A, B", true},
                        {"v_mac_f32 D, A, v29", true},
                        {"v_mac_f32 D, B, A", true},  // no outer product: src0 is b_0, b_1, b_0, b_1
                        {"v_fmac_f32_dpp D, A, B quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", false}};
    KernelOptions options;
    options.lds_bytes = 4096;
    for (const Mac& mac : macs) {
        for (const Case& c : cases) {
            for (const char* inputs : {"", lds_block_nans, lds_block_tiny}) {
                INFO(mac.text << ", before the block: " << c.before << ", after it: " << c.after
                              << ", between the trips: " << c.between << ", inputs: " << inputs);
                const CodeObject co =
                    assemble_kernel(lds_block_body(c.after, c.between, mac.text, inputs, false, c.before), options);
                const std::array<Program, 2> programs = fast_and_general(co);
                // Four reads, a wait, four multiply-adds, two reads, a wait, four,
                // a wait, four.
                const ExecInst& head = programs[0].code[instruction_at(programs[0], "ds_read_b64 v[12:13], v10")];
                CHECK(head.lds_block == 21);
                CHECK((head.lds_block_plan != 0) == mac.planned);
                // Not vacuous: where the addresses move together, every read may
                // take the repeated access's path (the first through v11 verified
                // across the trips), and the block runs whole.
                const ExecInst& middle =
                    programs[0].code[instruction_at(programs[0], "ds_read_b64 v[16:17], v11 offset:8")];
                CHECK((middle.lds_loop_slot() != 0) == c.whole);
                CHECK(programs[1].code[head.index].lds_block == 0);
                for (const auto isa : {sem::BlockMultiplyAddIsa::none, sem::BlockMultiplyAddIsa::avx2,
                                       sem::BlockMultiplyAddIsa::avx512}) {
                    INFO("block multiply-adds: " << static_cast<int>(isa));
                    sem::use_block_multiply_add_isa(isa);
                    check_lds_loop_runs(programs);
                }
                // Instruction by instruction: the random schedule, and an observer
                // told of each (one thread: the counts per workgroup).
                std::vector<std::uint32_t> results[2];
                Counters counters[2];
                CountEveryInstruction observers[2];
                for (unsigned way = 0; way < 4; ++way) {
                    TestRun run(3 * 128);
                    run.grid = {3, 1, 1};
                    run.block = {128, 1, 1};
                    if (way < 2) run.schedule = Schedule::parse("random:7");
                    else run.observer = &observers[way - 2];
                    const DispatchResult r = run.run_to_end(programs[way % 2]);
                    if (way % 2 == 0) {
                        results[way / 2] = run.read(0, 3 * 128);
                        counters[way / 2] = r.counters;
                    } else {
                        CHECK(run.read(0, 3 * 128) == results[way / 2]);
                        CHECK(r.counters == counters[way / 2]);
                    }
                }
                CHECK(observers[0].counts == observers[1].counts);
                // Each instruction announced, blocks' included.
                const auto total = [](const auto& counts) {
                    return std::accumulate(counts.begin(), counts.end(), std::uint64_t(0));
                };
                CHECK(total(observers[0].counts) == total(counters[1].instructions));
            }
        }
    }
}

// A planned block whose first run reads v16:17 from before the block,
// which its third read then writes: that read's rows go to the block's
// rows, and v16:17 get them after the runs (LdsBlockPlan::copies), or,
// where a read ends the block early, the rows of the reads made.
TEST_CASE("LDS-fed multiply-add blocks that write a VGPR a run reads from before them equal the general path",
          "[exec][lds][fast_paths]") {
    const char* const cases[] = {
        "  v_add_u32 v10, s21, v10\n  v_add_u32 v11, s21, v11",  // the block runs whole
        "  v_add_u32 v11, v0, v11",                              // it ends at the third read
    };
    KernelOptions options;
    options.lds_bytes = 4096;
    for (const char* mac : {"v_mac_f32 D, A, B", "v_fmac_f32 D, A, B"}) {
        for (const char* between : cases) {
            for (const char* inputs : {"", lds_block_nans, lds_block_tiny}) {
                INFO(mac << ", between the trips: " << between << ", inputs: " << inputs);
                const CodeObject co = assemble_kernel(lds_block_body("", between, mac, inputs, true), options);
                const std::array<Program, 2> programs = fast_and_general(co);
                const ExecInst& head = programs[0].code[instruction_at(programs[0], "ds_read_b64 v[12:13], v10")];
                CHECK(head.lds_block == 14);
                REQUIRE(head.lds_block_plan == 1);
                const LdsBlockPlan& plan = programs[0].lds_block_plans[0];
                const std::vector<std::pair<std::uint8_t, std::uint16_t>> copies = {{16, 4}, {17, 5}};
                CHECK(plan.copies == copies);
                for (const auto isa : {sem::BlockMultiplyAddIsa::none, sem::BlockMultiplyAddIsa::avx2,
                                       sem::BlockMultiplyAddIsa::avx512}) {
                    INFO("block multiply-adds: " << static_cast<int>(isa));
                    sem::use_block_multiply_add_isa(isa);
                    check_lds_loop_runs(programs);
                }
            }
        }
    }
}

// What a wave keeps of a block's checks (Wave::CheckedBlock) must not
// outlive a change to the block's memos by another wave of the workgroup.
// Wave 0's lanes read 4 bytes apart (8 in workgroup 1: the general
// gather); wave 1's rows each read one element (a vector gather that
// reads one address a row, wrong for wave 0's lanes); both write through
// v40 (4 bytes apart), so that only the block's reads see two patterns.
// Wave 1 skips the block on the first three trips, while wave 0 checks the
// reads and then keeps the checks; on the fourth it runs the block and the
// memos take its patterns; on the fifth wave 0's kept checks no longer
// hold, and its reads must look again.
TEST_CASE("A block's kept checks end when another wave changes its memos", "[exec][lds][fast_paths]") {
    const std::string block = four_reads_ahead("v_mac_f32 D, A, B");
    const std::string body = std::string(lds_loop_prologue) + R"(  v_readfirstlane_b32 s40, v0
  s_lshr_b32 s40, s40, 6
  v_lshrrev_b32 v41, 4, v0
  v_lshlrev_b32 v41, 6, v41
  s_cmp_eq_u32 s40, 1
  s_cselect_b64 vcc, -1, 0
  v_cndmask_b32 v10, v10, v41, vcc
  v_mov_b32 v11, v10
  s_mov_b32 s20, 5
  s_mov_b32 s21, 8
  v_mov_b32 v24, 0
  v_mov_b32 v25, 0
  v_mov_b32 v26, 0
  v_mov_b32 v27, 0
.Lloop:
  v_cvt_f32_u32 v21, v20
  v_cvt_f32_u32 v22, v0
  ds_write_b32 v40, v21
  ds_write_b32 v40, v22 offset:2048
  s_waitcnt lgkmcnt(0)
  s_barrier
  s_cmp_eq_u32 s40, 1
  s_cbranch_scc0 .Lblock
  s_cmp_ge_u32 s20, 3
  s_cbranch_scc1 .Lskip
.Lblock:
)" + block + ".Lskip:\n" + lds_block_trip_end +
                             R"(  v_add_u32 v10, s21, v10
  v_add_u32 v11, s21, v11
)" + lds_loop_epilogue;
    KernelOptions options;
    options.lds_bytes = 4096;
    // Moving 8 bytes a trip, and 0x300: wave 0's reads through v11 then
    // leave the LDS on a later trip, where its kept checks must see it.
    for (const char* move : {"8", "0x300"}) {
        INFO("moving by " << move);
        std::string moving = body;
        moving.replace(moving.find("s_mov_b32 s21, 8"), 16, std::string("s_mov_b32 s21, ") + move);
        const std::array<Program, 2> programs = fast_and_general(assemble_kernel(moving, options));
        const ExecInst& head = programs[0].code[instruction_at(programs[0], "ds_read_b64 v[12:13], v10")];
        REQUIRE(head.lds_block_plan == 1);
        CHECK(programs[0].lds_block_plans[0].checks_kept);
        for (const unsigned threads : {1u, 2u}) {
            INFO(threads << " threads");
            const LdsLoopRuns runs = run_lds_loop(programs, threads);
            CHECK(runs.faults[0] == runs.faults[1]);
            if (std::string(move) == "8") {
                CHECK(runs.faults[0].empty());
                CHECK(runs.results[0] == runs.results[1]);
                CHECK(runs.counters[0] == runs.counters[1]);
                CHECK(runs.results[0][5] != runs.results[0][128 + 5]);  // wave 0's lanes 4 and 8 apart
            } else {
                CHECK(runs.faults[0].find("LDS") != std::string::npos);
            }
        }
    }
}

// sem::block_multiply_adds by itself against the ISA's lane values: two
// runs of four steps on four accumulators, v_mac_f32 (fp::mad: multiply,
// round, flush, add, round, flush) and v_fmac_f32 with fp32 denormals kept
// (one rounding), as outer products and not, with each instruction set the
// host has. Lanes 0-31: a step of the second run cancels the first's
// product to within 2^-10 of it, about 2^-126, so the accumulator passes
// through the fp32 denormals (v_mac_f32 flushes each result; the block
// flushes once, at the end, and lets the mode flush the inputs of the steps
// in between); lanes 32-63: inputs spread over 2^-140 .. 2^40, some of them
// denormals.
TEST_CASE("A planned block's multiply-adds give v_mac_f32's and v_fmac_f32's lane values", "[exec][fast_paths]") {
    std::mt19937 random(11);
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    std::uniform_int_distribution<int> exponent(-70, 20), sign(0, 1);
    auto w = std::make_unique<Wave>();
    constexpr unsigned a0 = 10, b0 = 20;  // run r: a_i in v(a0 + 2r + i), b_j in v(b0 + 2r + j)
    for (unsigned l = 0; l < 64; ++l) {
        for (unsigned acc = 0; acc < 4; ++acc) w->v[acc][l] = fp::as_bits(l < 32 ? 0.0f : mantissa(random));
        for (unsigned k = 0; k < 4; ++k) {
            float a = std::ldexp(mantissa(random), exponent(random)),
                  b = std::ldexp(mantissa(random), exponent(random));
            if (l < 32) {
                a = std::ldexp(1.0f + float(l) / 64, -63), b = std::ldexp(1.0f, -63);
                if (k >= 2) a = -a * (1.0f - std::ldexp(1.0f, -10));  // the second run cancels the first
            }
            w->v[a0 + k][l] = fp::as_bits(sign(random) && l >= 32 ? -a : a);
            w->v[b0 + k][l] = fp::as_bits(b);
        }
    }
    std::vector<std::array<u32, 64>> before(32);  // v0..v31 as set
    for (unsigned r = 0; r < 32; ++r) std::memcpy(before[r].data(), w->v[r], sizeof w->v[r]);
    for (const bool fused : {false, true}) {
        for (const bool outer : {true, false}) {
            LdsBlockPlan plan;
            plan.fused = fused;
            plan.outer_product = outer;
            plan.accumulators = {0, 1, 2, 3};
            for (unsigned r = 0; r < 2; ++r)
                for (unsigned step = 0; step < 4; ++step) {  // acc[2i + j] += a_i * b_j, or a_j * b_i
                    const unsigned i = outer ? step / 2 : step % 2, j = outer ? step % 2 : step / 2;
                    plan.sources.push_back(std::uint16_t(a0 + 2 * r + i));
                    plan.sources.push_back(std::uint16_t(b0 + 2 * r + j));
                }
            ExecInst first_run;
            first_run.flush_in = first_run.flush_out = !fused;  // v_fmac_f32 under fp32 denorm mode 3
            // The ISA's values, step by step in program order.
            std::uint32_t expected[4][64];
            for (unsigned l = 0; l < 64; ++l)
                for (unsigned acc = 0; acc < 4; ++acc) {
                    float d = fp::as_float(before[acc][l]);
                    for (unsigned r = 0; r < 2; ++r) {
                        const float a = fp::as_float(before[plan.sources[2 * (4 * r + acc)]][l]);
                        const float b = fp::as_float(before[plan.sources[2 * (4 * r + acc) + 1]][l]);
                        d = fused ? std::fma(a, b, d) : fp::mad(a, b, d);
                    }
                    expected[acc][l] = fp::as_bits(d);
                }
            const u32 rows[1][64] = {};
            for (const auto isa : {sem::BlockMultiplyAddIsa::avx2, sem::BlockMultiplyAddIsa::avx512}) {
                INFO((fused ? "v_fmac_f32" : "v_mac_f32")
                     << (outer ? ", outer products" : "") << ", isa " << static_cast<int>(isa));
                sem::use_block_multiply_add_isa(isa);
                if (!sem::block_multiply_adds_available()) continue;  // a host without AVX2 and FMA
                for (unsigned acc = 0; acc < 4; ++acc) std::memcpy(w->v[acc], before[acc].data(), sizeof w->v[acc]);
                sem::block_multiply_adds(*w, first_run, plan, rows, 2);
                set_host_denormals_are_zero(*w, false);
                // Not vacuous: some results are denormals (kept), or were (flushed to 0).
                unsigned denormals = 0;
                for (unsigned l = 0; l < 32; ++l) {
                    const float e = fp::as_float(expected[1][l]);
                    denormals += fused ? std::fpclassify(e) == FP_SUBNORMAL : e == 0.0f;
                }
                CHECK(denormals > 0);
                for (unsigned acc = 0; acc < 4; ++acc)
                    for (unsigned l = 0; l < 64; ++l) {
                        INFO("v" << acc << " lane " << l);
                        CHECK(w->v[acc][l] == expected[acc][l]);
                    }
            }
            sem::use_block_multiply_add_isa(sem::BlockMultiplyAddIsa::avx512);
        }
    }
}

// VALU ops whose sources are VGPRs, SGPRs or constants used as they are,
// with every lane active, write their result straight to the destination
// (sem_vector.cpp's plain forms); with some lanes inactive the general
// path. Both against the ISA's lane values: v_add_u32, v_sub(rev)_u32,
// v_cndmask_b32 and v_cmp with an SGPR, an inline constant or a literal,
// in VOP2 and VOP3 form, two scalar sources, the destination aliasing
// either source or both; three-source VOP3 ops (v_lshl_add_u32, v_add3_u32)
// with VGPR, SGPR and constant src1/src2. The plain forms run with their
// AVX2 loops and their SSE2 ones (sem::use_plain_avx2), and the general path
// (use_general_paths) runs the same program.
TEST_CASE("VALU ops with VGPR, SGPR and constant sources compute the ISA's lane values", "[exec][fast_paths]") {
    constexpr std::uint32_t s20 = 0x7ffffff0u;
    const char* const ops = R"(
  v_add_u32 v10, s20, v2
  v_subrev_u32 v11, s20, v2
  v_add_u32 v12, 17, v2
  v_sub_u32 v13, 0x12345678, v2
  v_add_u32 v14, v2, v3
  v_add_u32 v15, s20, v15
  v_add_u32_e64 v16, v2, s20
  v_cmp_gt_i32 vcc, s21, v2
  v_cndmask_b32 v17, v3, v2, vcc
  v_cndmask_b32 v18, 5, v2, vcc
  v_cndmask_b32 v19, v19, v2, vcc
  v_cmp_lt_u32_e64 s[22:23], v3, v2
  v_cndmask_b32_e64 v20, v2, 7, s[22:23]
  v_and_b32 v21, 3, v2
  v_cmp_eq_u32 vcc, 2, v21
  v_cndmask_b32 v21, v3, v21, vcc
  v_add_u32 v22, v22, v22
  v_subrev_u32 v23, s20, v23
  v_add_u32_e64 v24, s20, s20
  v_add_u32_e64 v25, s20, 1
  v_lshl_add_u32 v26, v2, 2, v3
  v_lshl_add_u32 v27, v2, s21, 64
  v_mul_lo_u32 v28, v2, s20
  v_add3_u32 v29, v2, v3, v29
  v_lshl_add_u32 v30, v2, v3, s20
)";
    constexpr unsigned first = 10, count = 21;
    const auto expected = [&](unsigned reg, std::uint32_t x, std::uint32_t y) -> std::uint32_t {
        const bool negative = std::int32_t(x) < 0;
        switch (reg) {
        case 10: return s20 + x;
        case 11: return x - s20;
        case 12: return 17u + x;
        case 13: return 0x12345678u - x;
        case 14: return x + y;
        case 15: return s20 + y;
        case 16: return x + s20;
        case 17: return negative ? x : y;
        case 18: return negative ? x : 5u;
        case 19: return negative ? x : y;
        case 20: return y < x ? 7u : x;
        case 21: return (x & 3u) == 2 ? 2u : y;
        case 22: return y + y;
        case 23: return y - s20;
        case 24: return s20 + s20;
        case 25: return s20 + 1u;
        case 26: return (x << 2) + y;
        case 27: return x + 64u;  // s21 = 0
        case 28: return x * s20;
        case 29: return x + y + y;
        case 30: return (x << (y & 31)) + s20;
        }
        return 0;
    };
    for (const unsigned active : {64u, 45u}) {
        INFO("active lanes " << active);
        std::ostringstream s;
        s << "  global_load_dword v2, v1, s[6:7]\n  global_load_dword v3, v1, s[8:9]\n  s_waitcnt vmcnt(0)\n"
          << "  s_mov_b32 s20, 0x" << std::hex << s20 << std::dec << "\n  s_mov_b32 s21, 0\n";
        for (unsigned r = first; r < first + count; ++r) s << "  v_mov_b32 v" << r << ", v3\n";
        if (active < 64) s << "  v_cmpx_gt_u32 vcc, " << active << ", v0\n";
        s << ops << "  s_mov_b64 exec, -1\n";
        for (unsigned r = first; r < first + count; ++r)
            s << "  global_store_dword v1, v" << r << ", s[4:5]\n  s_add_u32 s4, s4, 256\n  s_addc_u32 s5, s5, 0\n";
        KernelOptions options;
        options.mcpu = "gfx906";
        options.vgprs = 40;
        const CodeObject co = assemble_kernel(s.str(), options);
        const std::array<Program, 2> programs = fast_and_general(co);
        std::mt19937 rng(900 + active);
        std::vector<std::uint32_t> x(64), y(64);
        for (std::uint32_t& v : x) v = rng();
        for (std::uint32_t& v : y) v = rng();
        // The plain forms' AVX2 loops (where the host has AVX2) and their SSE2
        // ones, and the general path.
        for (const auto& [path, avx2] : {std::pair{0, true}, std::pair{0, false}, std::pair{1, true}}) {
            INFO((path == 0 ? "plain forms" : "general path") << (avx2 ? "" : ", SSE2 loops"));
            TestRun run(64 * count);
            run.fill(1, x);
            run.fill(2, y);
            sem::use_plain_avx2(avx2);
            const DispatchResult r = run.run(programs[std::size_t(path)]);
            sem::use_plain_avx2(true);
            INFO((r.fault ? r.fault->message : std::string()));
            REQUIRE(r.ok());
            const std::vector<std::uint32_t> got = run.read(0, 64 * count);
            for (unsigned reg = first; reg < first + count; ++reg)
                for (unsigned lane = 0; lane < 64; ++lane) {
                    INFO("v" << reg << " lane " << lane);
                    REQUIRE(got[64 * (reg - first) + lane] ==
                            (lane < active ? expected(reg, x[lane], y[lane]) : y[lane]));
                }
        }
    }
}

// An MFMA between a ds_read and its wait touches only its A, B, C and D
// tuples, as wide as its shape (v_mfma_f32_32x32x2f32: one dword each of A
// and B, 16 of C and D): the read into v[20:21] may land at issue; the one
// into v2 (the MFMA's B) and the one into a5 (inside D, not its first
// register) may not. On the general path the MFMA reads the old v2 and the
// wait then lands both reads over what the MFMA left; both paths must
// store the same.
TEST_CASE("LDS reads in flight across an MFMA land at issue unless the MFMA's tuples overlap them",
          "[exec][lds][fast_paths]") {
    KernelOptions options;
    options.mcpu = "gfx90a";
    options.lds_bytes = 1024;
    options.agprs = 32;
    const CodeObject co = assemble_kernel(R"(
  v_add_u32 v3, 0x10000, v0
  ds_write_b32 v1, v3
  v_add_u32 v3, 0x100, v3
  ds_write_b32 v1, v3 offset:256
  v_add_u32 v3, 0x100, v3
  ds_write_b32 v1, v3 offset:512
  v_cvt_f32_u32 v2, v0
  v_mov_b32 v6, 0x3f800000
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[20:21], v1
  ds_read_b32 v2, v1 offset:256
  ds_read_b32 a5, v1 offset:512
  v_mfma_f32_32x32x2f32 a[0:15], v6, v2, a[0:15]
  s_waitcnt lgkmcnt(0)
  v_accvgpr_read_b32 v22, a5
  v_accvgpr_read_b32 v23, a6
  v_lshlrev_b32 v4, 4, v0
  global_store_dwordx4 v4, v[20:23], s[4:5]
  v_add_u32 v7, 0x400, v1
  global_store_dword v7, v2, s[4:5]
)",
                                          options);
    const std::array<Program, 2> programs = fast_and_general(co);
    const Program& p = programs[0];
    CHECK(lands_at_issue(p, "ds_read_b64 v[20:21], v1"));
    CHECK_FALSE(lands_at_issue(p, "ds_read_b32 v2, v1 offset:256"));
    CHECK_FALSE(lands_at_issue(p, "ds_read_b32 a5, v1 offset:512"));
    std::vector<std::uint32_t> results[2];
    for (unsigned i = 0; i < 2; ++i) {
        TestRun run(2048);
        const DispatchResult r = run.run(programs[i]);
        INFO("run " << i << (r.fault ? r.fault->message : std::string()));
        REQUIRE(r.ok());
        results[i] = run.read(0, 2048);
    }
    CHECK(results[0] == results[1]);
    // Not vacuous: lane 3's reads, and the MFMA's element in a6 from the old v2.
    CHECK(results[0][4 * 3] == 0x10003u);
    CHECK(results[0][4 * 3 + 2] == 0x10203u);
    CHECK(results[0][256 + 3] == 0x10103u);
    CHECK(results[0][4 * 3 + 3] != 0u);
}

// SALU ops whose operand reads program.cpp chooses at build time (SGPRs of
// the op's width, 32-bit constants, 64-bit constants with a zero high half)
// against the general function (use_general_paths), and both against the
// ISA's values: 32- and 64-bit results, SCC in and out, operands the forms
// leave to the general function (a 64-bit constant with a high half, an
// SGPR shift amount of a 64-bit shift, a 32-bit result of a 64-bit op).
TEST_CASE("SALU ops with SGPR and constant operands: the build-time forms equal the general path",
          "[exec][fast_paths]") {
    struct Op {
        const char* text;  // writes s30 or s[30:31] (or only SCC)
        std::function<std::uint64_t(std::uint32_t, std::uint32_t, std::uint32_t, bool)> value;
    };
    using u64 = std::uint64_t;
    const auto wide = [](std::uint32_t lo, std::uint32_t hi) { return u64(hi) << 32 | lo; };
    const std::vector<Op> ops = {
        {"s_add_u32 s30, s12, s13", [](auto a, auto b, auto, bool) { return u64(std::uint32_t(a + b)); }},
        {"s_add_u32 s30, 5, s13", [](auto, auto b, auto, bool) { return u64(std::uint32_t(5 + b)); }},
        {"s_addc_u32 s30, s12, s13", [](auto a, auto b, auto, bool c) { return u64(std::uint32_t(a + b + c)); }},
        {"s_addc_u32 s30, s12, 0", [](auto a, auto, auto, bool c) { return u64(std::uint32_t(a + c)); }},
        {"s_sub_u32 s30, s12, 0x12345678",
         [](auto a, auto, auto, bool) { return u64(std::uint32_t(a - 0x12345678u)); }},
        {"s_subb_u32 s30, s12, s13", [](auto a, auto b, auto, bool c) { return u64(std::uint32_t(a - b - c)); }},
        {"s_min_u32 s30, s12, 100", [](auto a, auto, auto, bool) { return u64(std::min(a, 100u)); }},
        {"s_cselect_b32 s30, s12, 3", [](auto a, auto, auto, bool c) { return u64(c ? a : 3u); }},
        {"s_mov_b32 s30, s13", [](auto, auto b, auto, bool) { return u64(b); }},
        {"s_mov_b32 s30, -7", [](auto, auto, auto, bool) { return u64(0xfffffff9u); }},
        {"s_and_b32 s30, s12, 0xff", [](auto a, auto, auto, bool) { return u64(a & 0xffu); }},
        {"s_mul_i32 s30, s12, -3", [](auto a, auto, auto, bool) { return u64(std::uint32_t(a * 0xfffffffdu)); }},
        {"s_mul_i32 s30, s12, s14", [](auto a, auto, auto c, bool) { return u64(std::uint32_t(a * c)); }},
        {"s_mov_b64 s[30:31], s[12:13]", [&](auto a, auto b, auto, bool) { return wide(a, b); }},
        {"s_mov_b64 s[30:31], 0x12345678", [](auto, auto, auto, bool) { return u64(0x12345678u); }},
        {"s_mov_b64 s[30:31], -1", [](auto, auto, auto, bool) { return ~u64(0); }},
        {"s_mov_b64 s[30:31], 1.0", [](auto, auto, auto, bool) { return u64(0x3ff0000000000000ull); }},
        {"s_lshl_b64 s[30:31], s[12:13], 3", [&](auto a, auto b, auto, bool) { return wide(a, b) << 3; }},
        {"s_lshl_b64 s[30:31], s[12:13], s14", [&](auto a, auto b, auto c, bool) { return wide(a, b) << (c & 63); }},
        {"s_and_b64 s[30:31], s[12:13], 0x7fffffff", [&](auto a, auto, auto, bool) { return u64(a & 0x7fffffffu); }},
        {"s_bcnt1_i32_b64 s30, s[12:13]",
         [&](auto a, auto b, auto, bool) { return u64(__builtin_popcountll(wide(a, b))); }},
        {"s_cmp_eq_u32 s12, s13", nullptr},
        {"s_cmp_eq_u32 s12, 0x55", nullptr},
        {"s_cmp_lg_u64 s[12:13], 0", nullptr},
    };
    std::ostringstream s;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        // SCC in: 1 for even ops, 0 for odd ones; s31 cleared under 32-bit results.
        s << (i % 2 == 0 ? "  s_cmp_eq_u32 s12, s12\n" : "  s_cmp_lg_u32 s12, s12\n") << "  s_mov_b32 s30, 0\n"
          << "  s_mov_b32 s31, 0\n  " << ops[i].text << "\n  s_cselect_b32 s32, 1, 0\n";
        for (const char* reg : {"s30", "s31", "s32"})
            s << "  v_mov_b32 v2, " << reg << "\n  global_store_dword v1, v2, s[4:5]\n  s_add_u32 s4, s4, 256\n"
              << "  s_addc_u32 s5, s5, 0\n";
    }
    KernelOptions options;
    options.mcpu = "gfx906";
    const CodeObject co = assemble_kernel(s.str(), options);
    const std::array<Program, 2> programs = fast_and_general(co);
    const std::vector<std::array<std::uint32_t, 3>> inputs = {
        {0x80000001u, 0xfffffffeu, 35u}, {0x55u, 0x55u, 0u}, {0xffffffffu, 0u, 7u}, {0u, 0u, 64u}};
    for (const auto& in : inputs) {
        INFO("s12 0x" << std::hex << in[0] << " s13 0x" << in[1] << " s14 0x" << in[2]);
        std::vector<std::uint32_t> got[2];
        for (std::size_t path = 0; path < 2; ++path) {
            TestRun run(64 * 3 * ops.size());
            run.value = {in[0], in[1], in[2], 0};
            const DispatchResult r = run.run(programs[path]);
            INFO((r.fault ? r.fault->message : std::string()));
            REQUIRE(r.ok());
            got[path] = run.read(0, 64 * 3 * ops.size());
        }
        for (std::size_t i = 0; i < ops.size(); ++i) {
            INFO(ops[i].text);
            for (unsigned k = 0; k < 3; ++k) REQUIRE(got[0][64 * (3 * i + k)] == got[1][64 * (3 * i + k)]);
            if (ops[i].value) {
                const u64 want = ops[i].value(in[0], in[1], in[2], i % 2 == 0);
                REQUIRE(wide(got[0][64 * 3 * i], got[0][64 * (3 * i + 1)]) == want);
            }
        }
    }
}

// buffer_load_dword's one-function path (sem_memory.cpp,
// buffer_load_dword_avx2) against the lane-by-lane path, a load of each of
// two allocations (A and B, as a GEMM's operands) per trip of a loop: the
// bases moving, an SGPR soffset and an instruction offset, then per trip
// num_records just below the last lane's offset (lane 63 reads 0) and just
// above it, a swizzled V# (every lane's address differs from the raw
// one's), add_tid with a stride (the lanes' addresses move by lane), a
// soffset that leaves the runs off 16-byte alignment (lane by lane), back,
// then one that leaves every lane off 4-byte alignment (the general path).
namespace {

std::string buffer_edges_body() {
    std::ostringstream s;
    s << "  s_mov_b32 s20, s6\n  s_and_b32 s21, s7, 0xffff\n  s_mov_b32 s22, s12\n  s_mov_b32 s23, 0x00020000\n"
      << "  s_mov_b32 s28, s8\n  s_and_b32 s29, s9, 0xffff\n  s_mov_b32 s30, 4096\n  s_mov_b32 s31, 0x00020000\n"
      << "  s_mov_b32 s24, s4\n  s_and_b32 s25, s5, 0xffff\n  s_mov_b32 s26, s13\n  s_mov_b32 s27, 0x00020000\n"
      << "  v_lshlrev_b32 v3, 2, v0\n  s_mov_b32 s41, 32\n  s_mov_b32 s40, 0\n"
      << ".Ltrip:\n  v_mov_b32 v4, -1\n  v_mov_b32 v5, -1\n"
      << "  buffer_load_dword v4, v3, s[20:23], s41 offen offset:16\n"
      << "  buffer_load_dword v5, v3, s[28:31], 0 offen\n  s_waitcnt vmcnt(0)\n"
      << "  buffer_store_dword v4, v1, s[24:27], 0 offen\n  buffer_store_dword v5, v1, s[24:27], 0 offen offset:256\n"
      << "  s_add_u32 s24, s24, 512\n  s_add_u32 s20, s20, 64\n  s_add_u32 s28, s28, 128\n  s_add_u32 s40, s40, 1\n";
    const char* trips[] = {
        "  s_mov_b32 s22, 268\n",                                       // 1: lane 63 at 16 + 252: out
        "  s_mov_b32 s22, 269\n",                                       // 2: every lane in
        "  s_or_b32 s21, s21, 0x80000000\n",                            // 3: swizzled
        "  s_and_b32 s21, s21, 0xffff\n  s_or_b32 s21, s21, 0x40000\n"  // 4: stride 4
        "  s_or_b32 s23, s23, 0x800000\n",                              //    and add_tid
        "  s_and_b32 s21, s21, 0xffff\n  s_mov_b32 s23, 0x00020000\n  s_mov_b32 s41, 36\n",  // 5: runs misaligned
        "  s_mov_b32 s41, 32\n",                                                             // 6: aligned again
        "  s_mov_b32 s41, 34\n",                                                             // 7: lanes misaligned
    };
    for (unsigned t = 0; t < 7; ++t)
        s << "  s_cmp_eq_u32 s40, " << t + 1 << "\n  s_cbranch_scc0 .Lkeep" << t << "\n"
          << trips[t] << ".Lkeep" << t << ":\n";
    s << "  s_cmp_lt_u32 s40, 8\n  s_cbranch_scc1 .Ltrip\n";
    return s.str();
}

}  // namespace

TEST_CASE("buffer_load_dword's common case: the one-function path equals the lane-by-lane path", "[exec][fast_paths]") {
    // Per trip A's 64 dwords, then B's. p2 (B) is zeroed by TestRun: its
    // loads read 0 but still move through the path.
    const std::vector<std::uint32_t> results = repeated_loads_agree(buffer_edges_body(), 4096, 8, 128);
    // Trip t reads A from byte 64 t + 32 + 16 + 4 l: dword 16 t + 12 + l.
    const auto a = [&](unsigned trip, unsigned lane) { return results[trip * 128 + lane]; };
    CHECK(a(0, 5) == 0x10000u + 12u + 5u);
    CHECK(a(1, 62) == 0x10000u + 16u + 12u + 62u);
    CHECK(a(1, 63) == 0u);  // offset 268, num_records 268
    CHECK(a(2, 63) == 0x10000u + 32u + 12u + 63u);
    // Swizzled (index stride 8, stride 0): offset o at 8 o.
    CHECK(a(3, 5) == 0x10000u + 48u + 8u + 2u * (16u + 20u));
    // add_tid, stride 4: lane l one dword further per lane.
    CHECK(a(4, 5) == 0x10000u + 64u + 12u + 10u);
    // soffset 36: one dword further.
    CHECK(a(5, 5) == 0x10000u + 80u + 13u + 5u);
    CHECK(a(6, 5) == 0x10000u + 96u + 12u + 5u);
    // soffset 34: lane 5 at byte 448 + 34 + 16 + 20 = 518, the high half of dword 129 and the low one of 130.
    CHECK(a(7, 5) == 0x00820001u);
}

// Vector memory loads landing at issue (ExecInst::vmem_lands_at_issue)
// against the general path, unobserved and under an observer that sees the
// counter entries but not global memory (the one-function path then keeps
// the entry's data). The loop is the SGEMM kernels' shape: loads P and P2
// before it, L1 and L2 inside, skipped on the last trip by an s_cmp and
// s_cbranch_scc1 whose compare the loop repeats to leave after the trip's
// work, into an epilogue that writes L1's and L2's registers. With the
// compare's SGPR untouched the SCC fact rules that path out and L1 and L2
// land at issue; with `s_mov_b32 s40, s40` before the second compare it
// does not, and they land at their wait. R1, whose register is read before
// its wait, never lands at issue.
namespace {

std::string vmem_landing_body(bool fact_holds) {
    std::ostringstream s;
    s << "  s_mov_b32 s20, s6\n  s_and_b32 s21, s7, 0xffff\n  s_mov_b32 s22, 4096\n  s_mov_b32 s23, 0x00020000\n"
      << "  s_mov_b32 s24, s4\n  s_and_b32 s25, s5, 0xffff\n  s_mov_b32 s26, 0x10000\n  s_mov_b32 s27, 0x00020000\n"
      << "  v_lshlrev_b32 v3, 2, v0\n  v_mov_b32 v7, 0\n  v_mov_b32 v9, -1\n  v_mov_b32 v10, -1\n  s_mov_b32 s40, 4\n"
      << "  buffer_load_dword v4, v3, s[20:23], 0 offen\n"
      << "  buffer_load_dword v5, v3, s[20:23], 0 offen offset:256\n"
      << ".Lloop:\n  s_waitcnt vmcnt(0)\n"
      << "  buffer_store_dword v4, v1, s[24:27], 0 offen\n"
      << "  buffer_store_dword v5, v1, s[24:27], 0 offen offset:256\n"
      << "  buffer_store_dword v10, v1, s[24:27], 0 offen offset:512\n"
      << "  s_add_u32 s24, s24, 768\n  s_add_u32 s20, s20, 64\n"
      << "  s_sub_u32 s40, s40, 1\n  s_cmp_eq_u32 s40, 0\n  s_cbranch_scc1 .Lwork\n"
      << "  buffer_load_dword v4, v3, s[20:23], 0 offen\n"
      << "  v_add_u32 v7, 1, v7\n"
      << "  buffer_load_dword v5, v3, s[20:23], 0 offen offset:256\n"
      << "  buffer_load_dword v9, v3, s[20:23], 0 offen offset:512\n"
      << "  v_mov_b32 v10, v9\n"
      << ".Lwork:\n  v_add_u32 v7, 2, v7\n"
      << (fact_holds ? "" : "  s_mov_b32 s40, s40\n") << "  s_cmp_eq_u32 s40, 0\n  s_cbranch_scc1 .Lend\n"
      << "  s_branch .Lloop\n"
      << ".Lend:\n  v_mov_b32 v4, 7\n  v_mov_b32 v5, v7\n"
      << "  buffer_store_dword v4, v1, s[24:27], 0 offen\n  buffer_store_dword v5, v1, s[24:27], 0 offen offset:256\n";
    return s.str();
}

// Every counter entry an observer is told of, without global memory. With
// operands_only it reads no register value, as the checkers; without
// every_landing it wants landed() only where it must come (as the checkers).
struct EntryStats {
    unsigned vm_landed_at_issue = 0;  // vmcnt entries issued already landed
    unsigned landings = 0, store_landings = 0;
};
struct EntryRecorder : WorkgroupObserver {
    std::vector<EntryRecord>& log;
    EntryStats& stats;
    bool operands_only, every_landing;
    EntryRecorder(std::vector<EntryRecord>& into, EntryStats& counts, bool reads_only_operands, bool every)
        : log(into), stats(counts), operands_only(reads_only_operands), every_landing(every) {}
    bool observes_global_memory() const override { return false; }
    bool reads_only_operands() const override { return operands_only; }
    bool observes_every_landing() const override { return every_landing; }
    void issued(const Wave&, const ExecInst&, const InFlightMemoryOp& p) override {
        log.emplace_back('i', p.inst_index, p.dest, p.reg, p.dwords, p.lanes);
        stats.vm_landed_at_issue += p.counter == WaitCounter::vm && p.landed;
    }
    void landed(const Wave&, const InFlightMemoryOp& p) override {
        log.emplace_back('l', p.inst_index, p.dest, p.reg, p.dwords, p.lanes);
        ++stats.landings;
        stats.store_landings += p.writes_memory;
    }
};
struct EntryWatcher : DispatchObserver {
    std::vector<EntryRecord> log;
    EntryStats stats;
    bool operands_only = false, every_landing = true;
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override {
        return std::make_unique<EntryRecorder>(log, stats, operands_only, every_landing);
    }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};

// The fast and the general program each run unobserved and under an
// EntryWatcher, on `input` in buffer 1: results (buffer 0) and counters by
// run (fast, general, fast observed, general observed), and the watchers'
// logs (fast, general).
struct FourRuns {
    std::vector<std::uint32_t> results[4];
    Counters counters[4];
    EntryWatcher watchers[2];
};
// One run of `program` on `input` in buffer 1 under `observer` (null:
// none): buffer 0 after it, and its counters.
struct OneRun {
    std::vector<std::uint32_t> result;
    Counters counters;
};
OneRun run_on(const Program& program, const std::vector<std::uint32_t>& input, DispatchObserver* observer) {
    TestRun run(input.size());
    run.fill(1, input);
    run.observer = observer;
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    return {run.read(0, input.size()), r.counters};
}
void run_four_ways(const std::array<Program, 2>& programs, const std::vector<std::uint32_t>& input, FourRuns& out) {
    for (unsigned i = 0; i < 4; ++i) {
        INFO("run " << i);
        OneRun one = run_on(programs[i % 2], input, i >= 2 ? &out.watchers[i - 2] : nullptr);
        out.results[i] = std::move(one.result);
        out.counters[i] = one.counters;
    }
}

}  // namespace

TEST_CASE("vector memory loads landing at issue equal the general path", "[exec][fast_paths]") {
    constexpr std::size_t dwords = 1024, stored = 4 * 192 + 128;
    std::vector<std::uint32_t> input(dwords);
    for (std::size_t i = 0; i < dwords; ++i) input[i] = 0x10000u + std::uint32_t(i);
    for (const bool fact_holds : {true, false}) {
        INFO("SCC fact " << (fact_holds ? "holds" : "dies"));
        const CodeObject co = assemble_kernel(vmem_landing_body(fact_holds));
        const std::array<Program, 2> programs = fast_and_general(co);
        const Program& p = programs[0];
        const auto lands = [&](const char* text) { return p.code[instruction_at(p, text)].vmem_lands_at_issue; };
        const auto loads = [&](const char* text) {
            std::vector<std::uint32_t> at;
            for (std::uint32_t i = 0; i < p.insts.size(); ++i)
                if (p.disassemble(i) == text) at.push_back(i);
            return at;
        };
        // P and L1 disassemble alike (as do P2 and L2): the first is P.
        const std::vector<std::uint32_t> v4_loads = loads("buffer_load_dword v4, v3, s[20:23], 0 offen");
        const std::vector<std::uint32_t> v5_loads = loads("buffer_load_dword v5, v3, s[20:23], 0 offen offset:256");
        REQUIRE(v4_loads.size() == 2);
        REQUIRE(v5_loads.size() == 2);
        CHECK(p.code[v4_loads[0]].vmem_lands_at_issue);
        CHECK(p.code[v5_loads[0]].vmem_lands_at_issue);
        CHECK(p.code[v4_loads[1]].vmem_lands_at_issue == fact_holds);
        CHECK(p.code[v5_loads[1]].vmem_lands_at_issue == fact_holds);
        CHECK_FALSE(lands("buffer_load_dword v9, v3, s[20:23], 0 offen offset:512"));
        CHECK(p.code[v4_loads[1]].buffer_dword_offen);
        for (const ExecInst& e : programs[1].code) CHECK_FALSE((e.vmem_lands_at_issue || e.buffer_dword_offen));

        FourRuns four;
        run_four_ways(programs, input, four);
        const auto& results = four.results;
        const auto& counters = four.counters;
        const auto& watchers = four.watchers;
        for (unsigned i = 1; i < 4; ++i) {
            INFO("run " << i << " against the unobserved fast one");
            for (std::size_t k = 0; k < stored; ++k) {
                INFO("trip " << k / 192 << " block " << k % 192 / 64 << " lane " << k % 64);
                REQUIRE(results[0][k] == results[i][k]);
            }
            CHECK(counters[0] == counters[i]);
        }
        CHECK(watchers[0].log == watchers[1].log);
        CHECK(watchers[0].log.size() > 20);
        CHECK(watchers[0].stats.vm_landed_at_issue == 0);
        // Under an observer that reads only operands (the checkers), the
        // loads that may land at issue do, their entries marked landed and
        // otherwise as the observer would see them.
        {
            EntryWatcher operands_only;
            operands_only.operands_only = true;
            const OneRun r = run_on(programs[0], input, &operands_only);
            for (std::size_t k = 0; k < stored; ++k) {
                INFO("operands-only observer: trip " << k / 192 << " block " << k % 192 / 64 << " lane " << k % 64);
                REQUIRE(results[0][k] == r.result[k]);
            }
            CHECK(counters[0] == r.counters);
            CHECK(operands_only.log == watchers[0].log);
            CHECK(operands_only.stats.vm_landed_at_issue > 0);
        }
        // Not vacuous: trip t stores what P (t = 0) or L1 and L2 of the trip
        // before read (from byte 64 t), v10 what R1 left before its wait
        // (-1 at trips 0 and 1, then the trip before last's value), and the
        // epilogue 7 and v7.
        const auto at = [&](unsigned trip, unsigned block, unsigned lane) {
            return results[0][trip * 192 + block * 64 + lane];
        };
        CHECK(at(0, 0, 5) == 0x10000u + 5u);
        CHECK(at(2, 1, 5) == 0x10000u + 32u + 64u + 5u);
        CHECK(at(1, 2, 5) == 0xffffffffu);
        CHECK(at(3, 2, 5) == 0x10000u + 32u + 128u + 5u);
        CHECK(at(4, 0, 5) == 7u);
        CHECK(at(4, 1, 5) == 3u + 4u * 2u);
    }
}

// s_waitcnt (sem::wait): without an observer, entries with nothing to land
// (LDS writes, reads and global loads landing at issue) retire by
// InFlightQueue::drop; SMEM results, stores and loads that land at their
// wait retire one by one through land(). The general program's entries all
// have data, so its waits take the one-by-one path: results, counters and
// the counters' values after each wait (IB_STS) must be equal, unobserved
// and observed. Loops wrap the LDS and vmcnt rings with waits that keep
// entries in flight; waits retire LDS entries before an SMEM one, all of
// the LDS ones and the SMEM one, and part of vmcnt past a store.
namespace {

const char* const wait_body = R"(
  v_lshlrev_b32 v3, 2, v0
  s_mov_b32 s40, 7
.Llds:
  ds_write_b32 v3, v0
  ds_write_b32 v3, v0 offset:256
  ds_write_b32 v3, v0 offset:512
  s_waitcnt lgkmcnt(1)
  s_sub_u32 s40, s40, 1
  s_cmp_eq_u32 s40, 0
  s_cbranch_scc0 .Llds
  s_getreg_b32 s41, hwreg(HW_REG_IB_STS)
  ds_read_b32 v10, v3
  ds_read_b32 v11, v3 offset:256
  s_load_dword s42, s[6:7], 0x8
  s_waitcnt lgkmcnt(1)
  s_getreg_b32 s43, hwreg(HW_REG_IB_STS)
  s_waitcnt lgkmcnt(0)
  s_getreg_b32 s44, hwreg(HW_REG_IB_STS)
  s_mov_b32 s20, s6
  s_and_b32 s21, s7, 0xffff
  s_mov_b32 s22, 4096
  s_mov_b32 s23, 0x00020000
  s_mov_b32 s40, 25
.Lvm:
  buffer_load_dword v12, v1, s[20:23], 0 offen
  buffer_load_dword v13, v1, s[20:23], 0 offen offset:256
  buffer_load_dword v14, v1, s[20:23], 0 offen offset:512
  s_waitcnt vmcnt(1)
  s_add_u32 s20, s20, 4
  s_sub_u32 s40, s40, 1
  s_cmp_eq_u32 s40, 0
  s_cbranch_scc0 .Lvm
  buffer_load_dword v15, v1, s[20:23], 0 offen
  global_store_dword v1, v0, s[4:5] offset:2048
  buffer_load_dword v16, v1, s[20:23], 0 offen offset:256
  s_waitcnt vmcnt(1)
  s_getreg_b32 s45, hwreg(HW_REG_IB_STS)
  s_waitcnt vmcnt(0)
  s_getreg_b32 s46, hwreg(HW_REG_IB_STS)
  v_mov_b32 v20, s41
  v_mov_b32 v21, s43
  v_mov_b32 v22, s44
  v_mov_b32 v23, s45
  v_mov_b32 v24, s46
  v_mov_b32 v25, s42
  global_store_dword v1, v10, s[4:5]
  global_store_dword v1, v11, s[4:5] offset:256
  global_store_dword v1, v12, s[4:5] offset:512
  global_store_dword v1, v13, s[4:5] offset:768
  global_store_dword v1, v14, s[4:5] offset:1024
  global_store_dword v1, v20, s[4:5] offset:1280
  global_store_dword v1, v21, s[4:5] offset:1536
  global_store_dword v1, v22, s[4:5] offset:1792
  global_store_dword v1, v23, s[4:5] offset:3072
  global_store_dword v1, v24, s[4:5] offset:3328
  global_store_dword v1, v25, s[4:5] offset:3584
  global_store_dword v1, v15, s[4:5] offset:3840
  global_store_dword v1, v16, s[4:5] offset:2304
)";

}  // namespace

TEST_CASE("s_waitcnt of entries with nothing to land equals retiring them one by one", "[exec][fast_paths]") {
    constexpr std::size_t dwords = 1024;
    std::vector<std::uint32_t> input(dwords);
    for (std::size_t i = 0; i < dwords; ++i) input[i] = 0x10000u + std::uint32_t(i);
    KernelOptions options;
    options.lds_bytes = 1024;
    const CodeObject co = assemble_kernel(wait_body, options);
    const std::array<Program, 2> programs = fast_and_general(co);
    FourRuns four;
    run_four_ways(programs, input, four);
    const auto& results = four.results;
    const auto& counters = four.counters;
    const auto& watchers = four.watchers;
    for (unsigned i = 1; i < 4; ++i) {
        INFO("run " << i << " against the unobserved fast one");
        CHECK(results[0] == results[i]);
        CHECK(counters[0] == counters[i]);
    }
    CHECK(watchers[0].log == watchers[1].log);
    // An observer that reads only operands and wants landed() only where it
    // must come (the checkers): the same run, and every store's landing.
    {
        EntryWatcher checker_like;
        checker_like.operands_only = true;
        checker_like.every_landing = false;
        const OneRun r = run_on(programs[0], input, &checker_like);
        CHECK(r.result == results[0]);
        CHECK(r.counters == counters[0]);
        CHECK(checker_like.stats.store_landings == watchers[0].stats.store_landings);
        CHECK(checker_like.stats.store_landings > 0);
        CHECK(checker_like.stats.landings < watchers[0].stats.landings);
    }
    // Not vacuous: the values the ISA gives.
    const auto at = [&](unsigned block, unsigned lane) { return results[0][block * 64 + lane]; };
    CHECK(at(0, 5) == 5u);  // ds_read_b32 of the LDS writes
    CHECK(at(1, 5) == 5u);  // offset 256
    // The last trip (24) of the buffer loads' loop, its base 24 dwords on.
    CHECK(at(2, 5) == 0x10000u + 24u + 5u);
    CHECK(at(3, 5) == 0x10000u + 24u + 64u + 5u);
    CHECK(at(4, 5) == 0x10000u + 24u + 128u + 5u);
    CHECK(at(5, 5) == 1u << 8);  // IB_STS: one LDS write after the loop
    CHECK(at(6, 5) == 1u << 8);  // the SMEM load after the LDS entries
    CHECK(at(7, 5) == 0u);
    CHECK(at(8, 5) == 5u);  // the store, retired by the wait
    CHECK(at(9, 5) == 0x10000u + 25u + 64u + 5u);
    CHECK(at(12, 5) == 1u);  // one load on vmcnt after the store
    CHECK(at(13, 5) == 0u);
    CHECK(at(14, 5) == 0x10002u);  // s_load_dword of p1's third dword
    CHECK(at(15, 5) == 0x10000u + 25u + 5u);
}
