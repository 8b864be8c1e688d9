// DPP: the lane mapping of every gfx9 control, row/bank masks, bound_ctrl,
// inactive source lanes, and that DPP permutes src0 (the first source).

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <sstream>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

// Independent model: source lane of `lane` (-1 = none) per control text.
struct Control {
    std::string text;
    std::function<int(int)> source;
};

std::vector<Control> controls(bool gfx90a) {
    std::vector<Control> c;
    c.push_back({"quad_perm:[0,0,2,2]", [](int l) { return (l / 4) * 4 + (l % 4 < 2 ? 0 : 2); }});
    c.push_back({"quad_perm:[3,2,1,0]", [](int l) { return (l / 4) * 4 + 3 - l % 4; }});
    c.push_back({"quad_perm:[1,1,1,1]", [](int l) { return (l / 4) * 4 + 1; }});
    for (int n = 1; n <= 15; ++n) {
        c.push_back({"row_shl:" + std::to_string(n), [n](int l) { return l % 16 + n < 16 ? l + n : -1; }});
        c.push_back({"row_shr:" + std::to_string(n), [n](int l) { return l % 16 - n >= 0 ? l - n : -1; }});
        c.push_back({"row_ror:" + std::to_string(n), [n](int l) { return (l / 16) * 16 + (l % 16 + 16 - n) % 16; }});
    }
    c.push_back({"wave_shl:1", [](int l) { return l < 63 ? l + 1 : -1; }});
    c.push_back({"wave_rol:1", [](int l) { return (l + 1) % 64; }});
    c.push_back({"wave_shr:1", [](int l) { return l > 0 ? l - 1 : -1; }});
    c.push_back({"wave_ror:1", [](int l) { return (l + 63) % 64; }});
    c.push_back({"row_mirror", [](int l) { return (l / 16) * 16 + 15 - l % 16; }});
    c.push_back({"row_half_mirror", [](int l) { return (l / 8) * 8 + 7 - l % 8; }});
    c.push_back({"row_bcast:15", [](int l) { return l >= 16 ? (l / 16) * 16 - 1 : -1; }});
    c.push_back({"row_bcast:31", [](int l) { return l >= 32 ? 31 : -1; }});
    if (gfx90a)
        for (int n : {0, 5, 15})
            c.push_back({"row_newbcast:" + std::to_string(n), [n](int l) { return (l / 16) * 16 + n; }});
    return c;
}

// One check of a control with its masks.
struct DppCase {
    std::string mcpu;
    Control control;
    unsigned row_mask = 0xf, bank_mask = 0xf;
    bool bound_ctrl = false;
    unsigned active_lanes = 64;

    std::string text() const {
        std::ostringstream t;
        t << control.text << " row_mask:0x" << std::hex << row_mask << " bank_mask:0x" << bank_mask;
        if (bound_ctrl) t << " bound_ctrl:0";
        return t.str();
    }
    // v2 = 1000 + lane; v5 = 7 (old value); lanes >= active_lanes inactive;
    // v_mov_b32_dpp v5, v2 <control>; store v5 with all lanes on.
    std::string body() const {
        std::ostringstream b;
        b << "  v_add_u32 v2, 1000, v0\n  v_mov_b32 v5, 7\n";
        if (active_lanes < 64) b << "  v_cmpx_gt_u32 vcc, " << active_lanes << ", v0\n";
        b << "  s_nop 1\n  v_mov_b32_dpp v5, v2 " << text() << "\n  s_mov_b64 exec, -1\n"
          << "  global_store_dword v1, v5, s[4:5]\n";
        return b.str();
    }
};

// Runs every case, each target's kernels assembled together (assemble_kernels), and checks each lane.
void check_controls(const std::vector<DppCase>& cases) {
    std::map<std::string, std::vector<std::size_t>> by_target;
    for (std::size_t i = 0; i < cases.size(); ++i) by_target[cases[i].mcpu].push_back(i);
    for (const auto& [mcpu, members] : by_target) {
        std::vector<std::string> bodies;
        for (std::size_t i : members) bodies.push_back(cases[i].body());
        KernelOptions options;
        options.mcpu = mcpu;
        const CodeObject co = assemble_kernels(bodies, options);
        for (std::size_t k = 0; k < members.size(); ++k) {
            const DppCase& d = cases[members[k]];
            INFO(mcpu << " " << d.text() << " active lanes " << d.active_lanes);
            const Program program = build_program(co, co.kernel("k" + std::to_string(k)));
            TestRun run(64);
            const DispatchResult r = run.run(program);
            INFO((r.fault ? r.fault->message : std::string()));
            REQUIRE(r.ok());
            const auto out = run.read(0, 64);
            for (int l = 0; l < 64; ++l) {
                const int from = d.control.source(l);
                const bool active = unsigned(l) < d.active_lanes;
                const bool enabled = ((d.row_mask >> (l / 16)) & 1) && ((d.bank_mask >> ((l % 16) / 4)) & 1);
                const bool valid = from >= 0 && unsigned(from) < d.active_lanes;
                std::uint32_t expected = 7;
                if (active && enabled) {
                    if (valid) expected = 1000 + from;
                    else if (d.bound_ctrl) expected = 0;
                }
                INFO("lane " << l);
                CHECK(out[l] == expected);
            }
        }
    }
}

}  // namespace

TEST_CASE("every gfx9 DPP control maps lanes as the ISA says", "[dpp]") {
    std::vector<DppCase> cases;
    for (const Control& c : controls(false)) cases.push_back({"gfx906", c});
    check_controls(cases);
}

TEST_CASE("row_newbcast on gfx90a", "[dpp]") {
    std::vector<DppCase> cases;
    for (const Control& c : controls(true))
        if (c.text.rfind("row_newbcast", 0) == 0) cases.push_back({"gfx90a", c});
    check_controls(cases);
}

TEST_CASE("row_mask, bank_mask, bound_ctrl and inactive source lanes", "[dpp]") {
    const auto all = controls(false);
    std::vector<DppCase> cases;
    for (const Control& c : all) {
        if (c.text != "row_shr:3" && c.text != "wave_shl:1" && c.text != "row_bcast:15" &&
            c.text != "quad_perm:[3,2,1,0]")
            continue;
        cases.push_back({"gfx906", c, 0xa, 0xf, false, 64});
        cases.push_back({"gfx906", c, 0xf, 0x5, false, 64});
        cases.push_back({"gfx906", c, 0xf, 0xf, true, 64});
        cases.push_back({"gfx906", c, 0x7, 0xe, true, 64});
        cases.push_back({"gfx906", c, 0xf, 0xf, false, 37});  // sources past lane 36 are inactive
        cases.push_back({"gfx906", c, 0xf, 0xf, true, 37});
    }
    check_controls(cases);
}

TEST_CASE("DPP permutes src0 of v_mac_f32", "[dpp]") {
    // c += b(quad lane 0 or 2) * a(own lane): b is the first source.
    const CodeObject co = assemble_kernel(R"(
  v_cvt_f32_u32 v2, v0
  v_mov_b32 v3, 2.0
  v_mov_b32 v5, 1.0
  s_nop 1
  v_mac_f32_dpp v5, v2, v3 quad_perm:[0,0,2,2] row_mask:0xf bank_mask:0xf
  global_store_dword v1, v5, s[4:5]
)");
    const Program program = build_program(co, co.kernels.at(0));
    TestRun run(64);
    REQUIRE(run.run(program).ok());
    const auto out = run.read_floats(0, 64);
    for (int l = 0; l < 64; ++l) CHECK(out[l] == 1.0f + 2.0f * float((l / 4) * 4 + (l % 4 < 2 ? 0 : 2)));
    const Counters counters = run.run(program).counters;
    // v_lshlrev (prologue), v_cvt, two v_mov and the DPP v_mac: "valu" counts all five, "valu_dpp" the one.
    CHECK(counters[InstClass::valu] == 5);
    CHECK(counters.valu_dpp == 1);
}
