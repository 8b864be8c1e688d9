// Atomics and LDS read-modify-write forms, hand-assembled, against values from
// the ISA pseudocode: every 64-bit atomic on global/flat/buffer and LDS, the DS
// 32-bit and float atomics, ds_append/consume, ds_wrxchg2, packed f16 atomic
// adds, scalar atomics and the ds src2 forms.

#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

// One lane's 64-bit atomic per the ISA pseudocode (Vega ISA "FLAT_ATOMIC_*_X2",
// "DS_*_U64"; CDNA2 for the f64 forms): the new memory value from the old one,
// DATA and (cmpswap) the compare value.
struct Atomic64 {
    const char* op;  // the mnemonic part after global_atomic_ / flat_atomic_ / buffer_atomic_
    u64 (*apply)(u64 old, u64 data, u64 compare);
    bool two_data = false;  // takes the compare pair too (cmpswap; DS: DATA = compare, DATA2 = data)
};
const Atomic64 integer_atomics64[] = {
    {"swap_x2", [](u64, u64 d, u64) { return d; }},
    {"cmpswap_x2", [](u64 o, u64 d, u64 c) { return o == c ? d : o; }},
    {"add_x2", [](u64 o, u64 d, u64) { return o + d; }},
    {"sub_x2", [](u64 o, u64 d, u64) { return o - d; }},
    {"smin_x2", [](u64 o, u64 d, u64) { return i64(d) < i64(o) ? d : o; }},
    {"umin_x2", [](u64 o, u64 d, u64) { return d < o ? d : o; }},
    {"smax_x2", [](u64 o, u64 d, u64) { return i64(d) > i64(o) ? d : o; }},
    {"umax_x2", [](u64 o, u64 d, u64) { return d > o ? d : o; }},
    {"and_x2", [](u64 o, u64 d, u64) { return o & d; }},
    {"or_x2", [](u64 o, u64 d, u64) { return o | d; }},
    {"xor_x2", [](u64 o, u64 d, u64) { return o ^ d; }},
    {"inc_x2", [](u64 o, u64 d, u64) { return o >= d ? 0 : o + 1; }},
    {"dec_x2", [](u64 o, u64 d, u64) { return (o == 0 || o > d) ? d : o - 1; }},
};
const Atomic64 float_atomics64[] = {
    {"add_f64", [](u64 o, u64 d, u64) { return bits64(from_bits64(o) + from_bits64(d)); }},
    {"min_f64", [](u64 o, u64 d, u64) { return from_bits64(d) < from_bits64(o) ? d : o; }},
    {"max_f64", [](u64 o, u64 d, u64) { return from_bits64(d) > from_bits64(o) ? d : o; }},
};

// Per lane: old memory, data, compare; edge cases first (equal values for
// cmpswap/inc/dec, zero, sign boundaries), then mixed bit patterns.
struct Atomic64Inputs {
    std::vector<u64> memory, data, compare;
};
Atomic64Inputs atomic64_inputs(bool floats) {
    Atomic64Inputs in;
    const u64 specials[] = {
        0, 1, 2, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x100000000ull, 0xffffffffull};
    const double float_specials[] = {0.0, -0.0, 1.5, -2.25, 1e300, -1e300, 0x1p-1074, 3.0};
    u64 state = 99;
    for (unsigned l = 0; l < 64; ++l) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        u64 m, d;
        if (floats) {
            m = bits64(float_specials[l % 8]);
            d = bits64(l < 32 ? float_specials[(l / 8) % 8] : double(i64(state >> 40) - (1 << 23)) / 64.0);
        } else {
            m = l < 32 ? specials[l % 8] : state;
            d = l < 32 ? specials[(l / 8) % 8] : (state >> 17) ^ (l << 3);
        }
        in.memory.push_back(m);
        in.data.push_back(d);
        in.compare.push_back(l % 3 == 0 ? m : m ^ 1);
    }
    return in;
}

enum class Path { global, flat, buffer, lds };

// The body: lane l's slot is 8 * l in p0 (memory; LDS for Path::lds), data
// from p1, compare from p2; returned values to p3, memory after into p0.
std::string atomic64_body(Path path, const std::string& mnemonic, bool cmpswap, bool returns) {
    std::string s =
        "  v_lshlrev_b32 v2, 3, v0\n"
        "  global_load_dwordx2 v[4:5], v2, s[6:7]\n"
        "  global_load_dwordx2 v[6:7], v2, s[8:9]\n"
        "  global_load_dwordx2 v[8:9], v2, s[4:5]\n"
        "  v_mov_b32 v10, 0x5eed\n  v_mov_b32 v11, 0x5eed\n"
        "  s_waitcnt vmcnt(0)\n";
    const std::string glc = returns ? " glc" : "";
    switch (path) {
    case Path::global:
        s += "  " + mnemonic + (returns ? " v[10:11]," : "") + " v2, " + (cmpswap ? "v[4:7]" : "v[4:5]") + ", s[4:5]" +
             glc + "\n";
        break;
    case Path::flat:
        s += "  v_mov_b32 v13, s5\n  v_add_co_u32 v12, vcc, s4, v2\n  v_addc_co_u32 v13, vcc, 0, v13, vcc\n";
        s += "  " + mnemonic + (returns ? " v[10:11]," : "") + " v[12:13], " + (cmpswap ? "v[4:7]" : "v[4:5]") + glc +
             "\n";
        break;
    case Path::buffer:
        s += "  s_mov_b32 s20, s4\n  s_mov_b32 s21, s5\n  s_mov_b32 s22, 0x200\n  s_mov_b32 s23, 0x27000\n";
        s += "  " + mnemonic + " " + (cmpswap ? "v[4:7]" : "v[4:5]") + ", v2, s[20:23], 0 offen" + glc + "\n";
        if (returns) s += "  s_waitcnt vmcnt(0)\n  v_mov_b32 v10, v4\n  v_mov_b32 v11, v5\n";
        break;
    case Path::lds:
        s += "  ds_write_b64 v2, v[8:9]\n  s_waitcnt lgkmcnt(0)\n";
        s += "  " + mnemonic + " " + (returns ? "v[10:11], " : "") + "v2, " + (cmpswap ? "v[6:7], v[4:5]" : "v[4:5]") +
             "\n";
        s += "  s_waitcnt lgkmcnt(0)\n  ds_read_b64 v[8:9], v2\n  s_waitcnt lgkmcnt(0)\n  global_store_dwordx2 v2, "
             "v[8:9], s[4:5]\n";
        break;
    }
    s += "  s_waitcnt vmcnt(0)\n  global_store_dwordx2 v2, v[10:11], s[10:11]\n  s_waitcnt vmcnt(0)\n";
    return s;
}

// Checks of 64-bit atomics, each kernel run on fresh memory; the kernels of
// one target (and LDS size) are assembled together (assemble_kernels), once.
class Atomic64Checks {
public:
    void add(Path path, const std::string& mnemonic, const Atomic64& a, bool floats, const char* mcpu, bool returns) {
        cases_.push_back({path, mnemonic, a, floats, mcpu, returns});
    }
    void run() const {
        std::map<std::pair<std::string, unsigned>, std::vector<std::size_t>> groups;  // (mcpu, LDS bytes) -> cases
        for (std::size_t i = 0; i < cases_.size(); ++i)
            groups[{cases_[i].mcpu, cases_[i].path == Path::lds ? 512u : 0u}].push_back(i);
        for (const auto& [key, members] : groups) {
            KernelOptions options;
            options.mcpu = key.first;
            options.lds_bytes = key.second;
            std::vector<std::string> bodies;
            for (std::size_t i : members) bodies.push_back(body(cases_[i]));
            const CodeObject co = assemble_kernels(bodies, options);
            for (std::size_t k = 0; k < members.size(); ++k)
                check(cases_[members[k]], bodies[k], build_program(co, co.kernel("k" + std::to_string(k))));
        }
    }

private:
    struct Case {
        Path path;
        std::string mnemonic;
        Atomic64 a;
        bool floats;
        std::string mcpu;
        bool returns;
    };
    static std::string body(const Case& c) {
        const bool cmpswap = c.a.two_data || std::string(c.a.op).find("cmp") != std::string::npos;
        return atomic64_body(c.path, c.mnemonic, cmpswap, c.returns);
    }
    static void check(const Case& c, const std::string& body, const Program& p) {
        const Atomic64& a = c.a;
        const bool returns = c.returns;
        INFO(c.mcpu << "\n" << body);
        const Atomic64Inputs in = atomic64_inputs(c.floats);
        TestRun run(128);
        auto as_dwords = [](const std::vector<u64>& v) {
            std::vector<u32> out(2 * v.size());
            std::memcpy(out.data(), v.data(), 8 * v.size());
            return out;
        };
        run.fill(0, as_dwords(in.memory));
        run.fill(1, as_dwords(in.data));
        run.fill(2, as_dwords(in.compare));
        const DispatchResult r = run.run(p);
        INFO((r.fault ? r.fault->message : std::string()));
        REQUIRE(r.ok());
        const auto memory = run.read(0, 128), returned = run.read(3, 128);
        for (unsigned l = 0; l < 64; ++l) {
            const u64 want = a.apply(in.memory[l], in.data[l], in.compare[l]);
            const u64 got = memory[2 * l] | u64(memory[2 * l + 1]) << 32;
            const u64 old = returned[2 * l] | u64(returned[2 * l + 1]) << 32;
            INFO(c.mnemonic << " lane " << l << " memory " << std::hex << in.memory[l] << " data " << in.data[l]
                            << " compare " << in.compare[l]);
            CHECK(got == want);
            CHECK(old == (returns ? in.memory[l] : 0x00005eed00005eedull));
        }
    }
    std::vector<Case> cases_;
};

// The atomic through global_, flat_ and buffer_atomic_<op>, with and without return.
void add_atomic64_on_memory(Atomic64Checks& checks, const Atomic64& a, bool floats, const char* mcpu) {
    const std::pair<Path, const char*> paths[] = {
        {Path::global, "global_atomic_"}, {Path::flat, "flat_atomic_"}, {Path::buffer, "buffer_atomic_"}};
    for (const bool returns : {true, false})
        for (const auto& [path, prefix] : paths) checks.add(path, prefix + std::string(a.op), a, floats, mcpu, returns);
}

}  // namespace

TEST_CASE("global/flat/buffer 64-bit integer atomics with and without return", "[memory][atomic]") {
    Atomic64Checks checks;
    for (const Atomic64& a : integer_atomics64) add_atomic64_on_memory(checks, a, false, "gfx906");
    checks.run();
}

TEST_CASE("gfx90a global/flat/buffer f64 atomics add/min/max", "[memory][atomic]") {
    Atomic64Checks checks;
    for (const Atomic64& a : float_atomics64) add_atomic64_on_memory(checks, a, true, "gfx90a");
    checks.run();
}

TEST_CASE("64-bit LDS atomics with and without return", "[lds][atomic]") {
    Atomic64Checks checks;
    // DS names: the _x2 op names of memory, spelled as the DS table spells them.
    const std::pair<const char*, const char*> names[] = {
        {"ds_wrxchg_rtn_b64", "swap_x2"}, {"ds_cmpst_b64", "cmpswap_x2"}, {"ds_add_u64", "add_x2"},
        {"ds_sub_u64", "sub_x2"},         {"ds_min_i64", "smin_x2"},      {"ds_min_u64", "umin_x2"},
        {"ds_max_i64", "smax_x2"},        {"ds_max_u64", "umax_x2"},      {"ds_and_b64", "and_x2"},
        {"ds_or_b64", "or_x2"},           {"ds_xor_b64", "xor_x2"},       {"ds_inc_u64", "inc_x2"},
        {"ds_dec_u64", "dec_x2"},
    };
    for (const auto& [name, op] : names) {
        const Atomic64& a = *std::find_if(std::begin(integer_atomics64), std::end(integer_atomics64),
                                          [op = op](const Atomic64& x) { return std::string(x.op) == op; });
        std::string base = name;
        const bool always_returns = base.find("_rtn") != std::string::npos;
        std::string with_rtn = base;
        if (!always_returns) with_rtn.insert(with_rtn.find('_', 3), "_rtn");
        checks.add(Path::lds, with_rtn, a, false, "gfx906", true);
        if (!always_returns) checks.add(Path::lds, base, a, false, "gfx906", false);
    }
    // DS_RSUB_U64: "MEM[ADDR] = DATA - MEM[ADDR]".
    const Atomic64 rsub{"rsub", [](u64 o, u64 d, u64) { return d - o; }};
    checks.add(Path::lds, "ds_rsub_rtn_u64", rsub, false, "gfx906", true);
    checks.add(Path::lds, "ds_rsub_u64", rsub, false, "gfx906", false);
    checks.add(Path::lds, "ds_add_rtn_f64", float_atomics64[0], true, "gfx90a", true);
    checks.add(Path::lds, "ds_add_f64", float_atomics64[0], true, "gfx90a", false);
    // DS_CONDXCHG32_RTN_B64 (RDNA pseudocode): "if DATA[31] then LDS[ADDR0] = {1'0, DATA[30:0]}",
    // the same for DATA[63] and ADDR0 + 4; the old element returns.
    const Atomic64 condxchg{"condxchg32", [](u64 o, u64 d, u64) {
                                const u64 low = (d & 0x80000000ull) ? d & 0x7fffffffull : o & 0xffffffffull;
                                const u64 high =
                                    (d & 0x8000000000000000ull) ? d & 0x7fffffff00000000ull : o & 0xffffffff00000000ull;
                                return high | low;
                            }};
    for (const char* mcpu : {"gfx900", "gfx90a"})
        checks.add(Path::lds, "ds_condxchg32_rtn_b64", condxchg, false, mcpu, true);
    checks.run();
}

namespace {

// A 32-bit memory op on one dword per lane: p0 = memory, p1 = data, p2 =
// data2, 256 bytes of LDS; the body leaves memory after the op in p0 and
// the returned values in p3.
struct MemoryOpResult {
    std::vector<u32> after, returned;
};
MemoryOpResult run_memory_op(const std::string& body, const char* mcpu, const std::vector<u32>& memory,
                             const std::vector<u32>& data, const std::vector<u32>& data2 = {}) {
    KernelOptions options;
    options.mcpu = mcpu;
    options.lds_bytes = 256;
    const CodeObject co = assemble_kernel(body, options);
    TestRun run(64);
    run.fill(0, memory);
    run.fill(1, data);
    if (!data2.empty()) run.fill(2, data2);
    run.run_to_end(build_program(co, co.kernels.at(0)));
    return {run.read(0, 64), run.read(3, 64)};
}

}  // namespace

TEST_CASE("ds_min/max_rtn_i32/u32 return the old value", "[lds][atomic]") {
    struct Op32 {
        const char* name;
        u32 (*apply)(u32 old, u32 data);
    };
    const Op32 ops[] = {
        {"ds_min_rtn_i32", [](u32 o, u32 d) { return i32(d) < i32(o) ? d : o; }},
        {"ds_max_rtn_i32", [](u32 o, u32 d) { return i32(d) > i32(o) ? d : o; }},
        {"ds_min_rtn_u32", [](u32 o, u32 d) { return d < o ? d : o; }},
        {"ds_max_rtn_u32", [](u32 o, u32 d) { return d > o ? d : o; }},
    };
    std::vector<u32> memory(64), data(64);
    for (u32 l = 0; l < 64; ++l) {
        memory[l] = (l * 0x9e3779b9u) ^ (l & 1 ? 0x80000000u : 0);
        data[l] = (l % 4 == 0) ? memory[l] : (l * 0x85ebca6bu);
    }
    for (const Op32& op : ops) {
        const std::string body =
            std::string("  global_load_dword v4, v1, s[6:7]\n  global_load_dword v8, v1, s[4:5]\n") +
            "  s_waitcnt vmcnt(0)\n  ds_write_b32 v1, v8\n  s_waitcnt lgkmcnt(0)\n  " + op.name +
            " v10, v1, v4\n  s_waitcnt lgkmcnt(0)\n  ds_read_b32 v8, v1\n  s_waitcnt lgkmcnt(0)\n"
            "  global_store_dword v1, v8, s[4:5]\n  global_store_dword v1, v10, s[10:11]\n";
        const auto [after, returned] = run_memory_op(body, "gfx906", memory, data);
        for (unsigned l = 0; l < 64; ++l) {
            INFO(op.name << " lane " << l);
            CHECK(after[l] == op.apply(memory[l], data[l]));
            CHECK(returned[l] == memory[l]);
        }
    }
}

TEST_CASE("ds_append/ds_consume: one LDS counter at M0 + offset and every active lane gets the old value", "[lds]") {
    // Counter at byte 16 (M0 = 8, offset 8), starting at 5: append with 64
    // lanes -> 69, consume with 8 lanes -> 61.
    const CodeObject co = assemble_kernel(R"(
  v_mov_b32 v3, 16
  v_mov_b32 v5, 5
  ds_write_b32 v3, v5
  s_waitcnt lgkmcnt(0)
  s_mov_b32 m0, 8
  ds_append v6 offset:8
  v_mov_b32 v7, 0xdead
  s_mov_b64 exec, 0xff
  ds_consume v7 offset:8
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, -1
  ds_read_b32 v8, v3
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
  global_store_dword v1, v7, s[6:7]
  global_store_dword v1, v8, s[8:9]
)",
                                          KernelOptions{"gfx906", 64});
    TestRun run(64);
    run.run_to_end(build_program(co, co.kernels.at(0)));
    const auto appended = run.read(0, 64), consumed = run.read(1, 64), counter = run.read(2, 64);
    for (unsigned l = 0; l < 64; ++l) {
        INFO("lane " << l);
        CHECK(appended[l] == 5);
        CHECK(consumed[l] == (l < 8 ? 69u : 0xdeadu));
        CHECK(counter[l] == 61);
    }
}

TEST_CASE("LDS f64 min/max/cmpst and 64-bit mskor", "[lds][atomic]") {
    Atomic64Checks checks;
    // DS_CMPST_F64: "MEM = (MEM == DATA) ? DATA2 : MEM" compared as doubles; DS_MSKOR_B64: "MEM = (MEM & ~DATA) |
    // DATA2".
    const Atomic64 cmpst{"cmpst_f64", [](u64 o, u64 d, u64 c) { return from_bits64(o) == from_bits64(c) ? d : o; },
                         true};
    const Atomic64 mskor{"mskor_b64", [](u64 o, u64 d, u64 c) { return (o & ~c) | d; }, true};
    for (const bool returns : {true, false}) {
        const std::string rtn = returns ? "_rtn" : "";
        checks.add(Path::lds, "ds_min" + rtn + "_f64", float_atomics64[1], true, "gfx906", returns);
        checks.add(Path::lds, "ds_max" + rtn + "_f64", float_atomics64[2], true, "gfx906", returns);
        checks.add(Path::lds, "ds_cmpst" + rtn + "_f64", cmpst, true, "gfx906", returns);
        checks.add(Path::lds, "ds_mskor" + rtn + "_b64", mskor, false, "gfx906", returns);
    }
    checks.run();
}

TEST_CASE("LDS 32-bit float min/max/cmpst and mskor and wrap", "[lds][atomic]") {
    struct Op32 {
        const char* name;
        u32 (*apply)(u32 old, u32 data, u32 data2);
        bool two_data;
        bool returns;
    };
    static float (*const as_f)(u32) = from_bits;
    const Op32 ops[] = {
        {"ds_min_f32", [](u32 o, u32 d, u32) { return as_f(d) < as_f(o) ? d : o; }, false, false},
        {"ds_min_rtn_f32", [](u32 o, u32 d, u32) { return as_f(d) < as_f(o) ? d : o; }, false, true},
        {"ds_max_f32", [](u32 o, u32 d, u32) { return as_f(d) > as_f(o) ? d : o; }, false, false},
        {"ds_max_rtn_f32", [](u32 o, u32 d, u32) { return as_f(d) > as_f(o) ? d : o; }, false, true},
        {"ds_cmpst_f32", [](u32 o, u32 d, u32 d2) { return as_f(o) == as_f(d) ? d2 : o; }, true, false},
        {"ds_cmpst_rtn_f32", [](u32 o, u32 d, u32 d2) { return as_f(o) == as_f(d) ? d2 : o; }, true, true},
        {"ds_mskor_b32", [](u32 o, u32 d, u32 d2) { return (o & ~d) | d2; }, true, false},
        {"ds_mskor_rtn_b32", [](u32 o, u32 d, u32 d2) { return (o & ~d) | d2; }, true, true},
        {"ds_wrap_rtn_b32", [](u32 o, u32 d, u32 d2) { return o >= d ? o - d : o + d2; }, true, true},
    };
    const u32 specials[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000,
                            0x7f800000, 0x7fc00000, 0x00000001, 0x40490fdb};
    std::vector<u32> memory(64), data(64), data2(64);
    for (u32 l = 0; l < 64; ++l) {
        memory[l] = l < 32 ? specials[l % 8] : l * 0x9e3779b9u;
        data[l] = l < 32 ? specials[(l / 8 + l) % 8] : (l % 3 == 0 ? memory[l] : l * 0x85ebca6bu);
        data2[l] = l * 0x01000193u;
    }
    for (const Op32& op : ops) {
        const std::string operands = op.two_data ? " v1, v4, v5" : " v1, v4";
        const std::string body =
            std::string("  global_load_dword v4, v1, s[6:7]\n  global_load_dword v5, v1, s[8:9]\n") +
            "  global_load_dword v8, v1, s[4:5]\n  v_mov_b32 v10, 0x5eed\n"
            "  s_waitcnt vmcnt(0)\n  ds_write_b32 v1, v8\n  s_waitcnt lgkmcnt(0)\n  " +
            op.name + (op.returns ? " v10," : "") + operands +
            "\n  s_waitcnt lgkmcnt(0)\n  ds_read_b32 v8, v1\n"
            "  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v8, s[4:5]\n  global_store_dword v1, v10, s[10:11]\n";
        const auto [after, returned] = run_memory_op(body, "gfx906", memory, data, data2);
        for (unsigned l = 0; l < 64; ++l) {
            INFO(op.name << " lane " << l << " memory " << std::hex << memory[l] << " data " << data[l] << " data2 "
                         << data2[l]);
            CHECK(after[l] == op.apply(memory[l], data[l], data2[l]));
            CHECK(returned[l] == (op.returns ? memory[l] : 0x5eedu));
        }
    }
}

TEST_CASE("ds_wrxchg2(st64)_rtn_b32/b64 swap at two addresses and return both", "[lds]") {
    // Lane l: element addresses 8l + offset0/offset1 elements (times 64 for st64).
    for (const bool wide : {false, true})
        for (const bool st64 : {false, true}) {
            const std::string name =
                std::string("ds_wrxchg2") + (st64 ? "st64" : "") + "_rtn_" + (wide ? "b64" : "b32");
            const unsigned element = wide ? 8 : 4, scale = element * (st64 ? 64 : 1);
            const unsigned offset0 = 1, offset1 = 3;
            std::string body = "  v_lshlrev_b32 v2, 3, v0\n";
            // Fill the LDS with a pattern: dword i = i * 3 + 1.
            body += "  v_mov_b32 v3, 0\n";
            body +=
                "  s_mov_b32 s20, 0\n.Lfill:\n  v_lshlrev_b32 v6, 2, v0\n  v_add_u32 v6, s20, v6\n"
                "  v_lshrrev_b32 v7, 2, v6\n  v_mad_u32_u24 v7, v7, 3, 1\n  ds_write_b32 v6, v7\n"
                "  s_add_u32 s20, s20, 256\n  s_cmp_lt_u32 s20, 0x8000\n  s_cbranch_scc1 .Lfill\n  s_waitcnt "
                "lgkmcnt(0)\n";
            body +=
                "  v_add_u32 v4, 0x100, v0\n  v_add_u32 v5, 0x200, v0\n  v_add_u32 v8, 0x300, v0\n  v_add_u32 v9, "
                "0x400, v0\n";
            if (wide) body += "  " + name + " v[10:13], v2, v[4:5], v[8:9] offset0:1 offset1:3\n";
            else body += "  " + name + " v[10:11], v2, v4, v8 offset0:1 offset1:3\n";
            body += "  s_waitcnt lgkmcnt(0)\n";
            const unsigned dwords = wide ? 4 : 2;
            body += "  v_lshlrev_b32 v14, " + std::to_string(wide ? 4 : 3) + ", v0\n";
            body +=
                std::string("  global_store_dword") + (wide ? "x4 v14, v[10:13]" : "x2 v14, v[10:11]") + ", s[4:5]\n";
            // Read back the two written elements.
            body += "  v_add_u32 v15, " + std::to_string(offset0 * scale) + ", v2\n  v_add_u32 v16, " +
                    std::to_string(offset1 * scale) + ", v2\n";
            body += std::string("  ds_read_") + (wide ? "b64 v[20:21], v15\n  ds_read_b64 v[22:23], v16\n"
                                                      : "b32 v20, v15\n  ds_read_b32 v22, v16\n");
            body += "  s_waitcnt lgkmcnt(0)\n  v_lshlrev_b32 v17, 4, v0\n";
            body += wide ? "  global_store_dwordx4 v17, v[20:23], s[6:7]\n"
                         : "  v_mov_b32 v21, v22\n  global_store_dwordx2 v17, v[20:21], s[6:7]\n";
            KernelOptions options;
            options.lds_bytes = 0x8000;
            const CodeObject co = assemble_kernel(body, options);
            TestRun run(64 * 4);
            INFO(name);
            run.run_to_end(build_program(co, co.kernels.at(0)));
            const auto returned = run.read(0, 64 * dwords), written = run.read(1, 64 * 4);
            // Lanes run in order, so a later lane's exchange may read an earlier lane's
            // write (8-byte lane stride, element stride 4 or 8): model it on a host copy.
            std::vector<u32> lds(0x8000 / 4);
            for (u32 i = 0; i < lds.size(); ++i) lds[i] = i * 3 + 1;
            std::vector<u32> want_returned(64 * dwords);
            for (unsigned l = 0; l < 64; ++l)
                for (unsigned el = 0; el < 2; ++el) {
                    const unsigned address = 8 * l + (el ? offset1 : offset0) * scale;
                    const u32 data[2] = {(el ? 0x300u : 0x100u) + l, (el ? 0x400u : 0x200u) + l};
                    for (unsigned d = 0; d < element / 4; ++d) {
                        want_returned[l * dwords + el * (element / 4) + d] = lds[address / 4 + d];
                        lds[address / 4 + d] = data[d];
                    }
                }
            for (unsigned l = 0; l < 64; ++l) {
                INFO(name << " lane " << l);
                for (unsigned d = 0; d < dwords; ++d) CHECK(returned[l * dwords + d] == want_returned[l * dwords + d]);
                for (unsigned el = 0; el < 2; ++el)
                    for (unsigned d = 0; d < element / 4; ++d) {
                        const unsigned address = 8 * l + (el ? offset1 : offset0) * scale;
                        CHECK(written[l * 4 + el * (wide ? 2 : 1) + d] == lds[address / 4 + d]);
                    }
            }
        }
}

TEST_CASE("packed f16 atomic adds on global/buffer (gfx908+) and flat/LDS (gfx940) round each half once",
          "[memory][atomic]") {
    // Halves: 1 + 2^-11 (ties to even -> 1), 65504 + 32 (-> inf), -0 + -0, inf + -inf (NaN), denormals, 0.1 + 0.2.
    const std::vector<std::pair<u32, u32>> pairs = {
        {0x3c00, 0x1000}, {0x7bff, 0x5000}, {0x8000, 0x8000}, {0x7c00, 0xfc00},
        {0x0001, 0x0001}, {0x2e66, 0x3266}, {0x3c01, 0x1000}, {0xc000, 0x3c00},
    };
    // Reference: the exact sum in double, rounded to the nearest f16 (ties to even) by hand.
    auto value = [](u32 h) {
        const int e = int((h >> 10) & 0x1f), m = int(h & 0x3ff);
        const double v = e ? std::ldexp(1024.0 + m, e - 25) : std::ldexp(double(m), -24);
        return (h & 0x8000) ? -v : v;
    };
    auto add = [&](u32 a, u32 b) -> u32 {
        const bool a_inf = (a & 0x7fff) == 0x7c00, b_inf = (b & 0x7fff) == 0x7c00;
        if (a_inf && b_inf && ((a ^ b) & 0x8000)) return 0x7e00;
        if (a_inf || b_inf) return a_inf ? a : b;
        const double sum = value(a) + value(b);
        if (sum == 0) return a & b & 0x8000;
        // Candidates: every f16 of the sum's sign; pick the nearest, ties to the even encoding.
        const u32 sign = sum < 0 ? 0x8000 : 0;
        u32 best = 0x7c00;
        double best_distance = INFINITY;
        for (u32 h = 0; h < 0x7c00; ++h) {
            const double distance = std::fabs(std::fabs(sum) - value(h));
            if (distance < best_distance || (distance == best_distance && !(h & 1))) best = h, best_distance = distance;
        }
        if (std::fabs(sum) >= 65520.0) best = 0x7c00;  // beyond max + half an ulp: overflow
        return sign | best;
    };
    struct Form {
        const char* mcpu;
        std::string text;
    };
    const Form forms[] = {
        {"gfx908", "  global_atomic_pk_add_f16 v1, v4, s[4:5]\n"},
        {"gfx90a", "  global_atomic_pk_add_f16 v10, v1, v4, s[4:5] glc\n"},
        {"gfx940",
         "  v_mov_b32 v13, s5\n  v_add_co_u32 v12, vcc, s4, v1\n  v_addc_co_u32 v13, vcc, 0, v13, vcc\n"
         "  flat_atomic_pk_add_f16 v10, v[12:13], v4 sc0\n"},
        {"gfx908",
         "  s_mov_b32 s20, s4\n  s_mov_b32 s21, s5\n  s_mov_b32 s22, 0x100\n  s_mov_b32 s23, 0x27000\n"
         "  buffer_atomic_pk_add_f16 v4, v1, s[20:23], 0 offen\n"},
        {"gfx940",
         "  ds_write_b32 v1, v8\n  s_waitcnt lgkmcnt(0)\n  ds_pk_add_rtn_f16 v10, v1, v4\n  s_waitcnt lgkmcnt(0)\n"
         "  ds_read_b32 v8, v1\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v8, s[4:5]\n"},
    };
    std::vector<u32> memory(64), data(64);
    for (u32 l = 0; l < 64; ++l) {
        const auto& lo = pairs[l % pairs.size()];
        const auto& hi = pairs[(l / 8 + 3) % pairs.size()];
        memory[l] = lo.first | hi.second << 16;
        data[l] = lo.second | hi.first << 16;
    }
    for (const Form& form : forms) {
        const bool returns = form.text.find("v10") != std::string::npos;
        const std::string body =
            "  global_load_dword v4, v1, s[6:7]\n  global_load_dword v8, v1, s[4:5]\n  v_mov_b32 v10, 0x5eed\n"
            "  s_waitcnt vmcnt(0)\n" +
            form.text + "  s_waitcnt vmcnt(0)\n  global_store_dword v1, v10, s[10:11]\n";
        INFO(form.text);
        const auto [after, returned] = run_memory_op(body, form.mcpu, memory, data);
        for (unsigned l = 0; l < 64; ++l) {
            INFO("lane " << l << std::hex << " memory " << memory[l] << " data " << data[l]);
            const u32 want = add(memory[l] & 0xffff, data[l] & 0xffff) | add(memory[l] >> 16, data[l] >> 16) << 16;
            CHECK(after[l] == want);
            CHECK(returned[l] == (returns ? memory[l] : 0x5eedu));
        }
    }
}

TEST_CASE("scalar atomics on addresses and buffers in 32 and 64 bits and s_buffer_store and s_dcache_wb",
          "[memory][atomic][smem]") {
    // One workgroup per (memory, data, compare) triple: slot 8 * workgroup of p0,
    // data and compare from p1/p2, the returned value (glc) to p3.
    const Atomic64Inputs in = atomic64_inputs(false);
    const unsigned groups = 32;
    auto as_dwords = [](const std::vector<u64>& v) {
        std::vector<u32> out(2 * v.size());
        std::memcpy(out.data(), v.data(), 8 * v.size());
        return out;
    };
    // Two passes: the first collects the kernels, assembled together
    // (assemble_kernels); the second runs and checks them in the same order.
    std::vector<std::string> bodies;
    CodeObject atomics;
    std::size_t next = 0;
    for (const bool collecting : {true, false}) {
        if (!collecting) atomics = assemble_kernels(bodies);
        for (const Atomic64& a : integer_atomics64)
            for (const bool wide : {false, true})
                for (const bool buffer : {false, true}) {
                    std::string name = std::string(buffer ? "s_buffer_atomic_" : "s_atomic_") + a.op;
                    if (!wide) name = name.substr(0, name.size() - 3);
                    const bool cmpswap = std::string(a.op).find("cmp") != std::string::npos;
                    std::string body =
                        "  s_lshl_b32 s28, s2, 3\n"
                        "  s_load_dwordx2 s[20:21], s[6:7], s28\n"
                        "  s_load_dwordx2 s[22:23], s[8:9], s28\n"
                        "  s_waitcnt lgkmcnt(0)\n";
                    if (cmpswap && !wide) body += "  s_mov_b32 s21, s22\n";
                    const std::string data =
                        wide ? (cmpswap ? "s[20:23]" : "s[20:21]") : (cmpswap ? "s[20:21]" : "s20");
                    if (buffer) {
                        body +=
                            "  s_mov_b32 s24, s4\n  s_mov_b32 s25, s5\n  s_mov_b32 s26, 0x100\n  s_mov_b32 s27, "
                            "0x27000\n";
                        body += "  " + name + " " + data + ", s[24:27], s28 glc\n";
                    } else {
                        body += "  " + name + " " + data + ", s[4:5], s28 glc\n";
                    }
                    body +=
                        "  s_dcache_wb\n  s_waitcnt lgkmcnt(0)\n"
                        "  v_mov_b32 v2, s20\n  v_mov_b32 v3, s21\n  v_mov_b32 v5, s28\n"
                        "  global_store_dwordx2 v5, v[2:3], s[10:11]\n";
                    if (collecting) {
                        bodies.push_back(body);
                        continue;
                    }
                    const std::string kernel = "k" + std::to_string(next++);
                    TestRun run(128);
                    run.grid = {groups, 1, 1};
                    run.fill(0, as_dwords(in.memory));
                    run.fill(1, as_dwords(in.data));
                    run.fill(2, as_dwords(in.compare));
                    const DispatchResult r = run.run(build_program(atomics, atomics.kernel(kernel)));
                    INFO(body << (r.fault ? r.fault->message : std::string()));
                    REQUIRE(r.ok());
                    const auto memory = run.read(0, 2 * groups), returned = run.read(3, 2 * groups);
                    for (unsigned g = 0; g < groups; ++g) {
                        INFO(name << " workgroup " << g << std::hex << " memory " << in.memory[g] << " data "
                                  << in.data[g] << " compare " << in.compare[g]);
                        if (wide) {
                            const u64 want = a.apply(in.memory[g], in.data[g], in.compare[g]);
                            CHECK((memory[2 * g] | u64(memory[2 * g + 1]) << 32) == want);
                            CHECK((returned[2 * g] | u64(returned[2 * g + 1]) << 32) == in.memory[g]);
                        } else {
                            // 32 bits: the 64-bit rule on the low dwords (sign-extended for the signed
                            // min/max, zero-extended otherwise), truncated; the high dword of memory is untouched.
                            const bool is_signed =
                                std::string(a.op).rfind("smin", 0) == 0 || std::string(a.op).rfind("smax", 0) == 0;
                            auto widen = [is_signed](u64 x) { return is_signed ? u64(i64(i32(u32(x)))) : u64(u32(x)); };
                            const u32 want = u32(a.apply(widen(in.memory[g]), widen(in.data[g]), widen(in.compare[g])));
                            CHECK(memory[2 * g] == want);
                            CHECK(memory[2 * g + 1] == u32(in.memory[g] >> 32));
                            CHECK(returned[2 * g] == u32(in.memory[g]));
                        }
                    }
                }
    }
    // s_buffer_store: two dwords stored, the third past num_records (12 bytes) dropped.
    const CodeObject co = assemble_kernel(R"(
  s_mov_b32 s24, s4
  s_mov_b32 s25, s5
  s_mov_b32 s26, 12
  s_mov_b32 s27, 0x27000
  s_mov_b32 s20, 0x11111111
  s_mov_b32 s21, 0x22222222
  s_mov_b32 s22, 0x33333333
  s_mov_b32 s23, 0x44444444
  s_buffer_store_dwordx4 s[20:23], s[24:27], 0x4
  s_dcache_wb
  s_waitcnt lgkmcnt(0)
)");
    TestRun run(8);
    run.fill(0, {1, 2, 3, 4, 5, 6, 7, 8});
    REQUIRE(run.run(build_program(co, co.kernels.at(0))).ok());
    CHECK(run.read(0, 8) == std::vector<u32>{1, 0x11111111, 0x22222222, 4, 5, 6, 7, 8});
}

TEST_CASE("ds src2 forms (gfx900-gfx908): MEM(A) = MEM(A) op MEM(A + offset elements)", "[lds]") {
    struct Src2Op {
        const char* stem;  // ds_<stem>_src2_<type>
        u64 (*apply)(u64 a, u64 b, bool wide);
    };
    const Src2Op ops[] = {
        {"add", [](u64 a, u64 b, bool w) { return w ? a + b : u64(u32(a + b)); }},
        {"sub", [](u64 a, u64 b, bool w) { return w ? a - b : u64(u32(a - b)); }},
        {"rsub", [](u64 a, u64 b, bool w) { return w ? b - a : u64(u32(b - a)); }},
        {"inc", [](u64 a, u64 b, bool) { return a >= b ? 0 : a + 1; }},
        {"dec", [](u64 a, u64 b, bool) { return (a == 0 || a > b) ? b : a - 1; }},
        {"min_i", [](u64 a, u64 b, bool w) { return w ? (i64(b) < i64(a) ? b : a) : (i32(b) < i32(a) ? b : a); }},
        {"max_i", [](u64 a, u64 b, bool w) { return w ? (i64(b) > i64(a) ? b : a) : (i32(b) > i32(a) ? b : a); }},
        {"min_u", [](u64 a, u64 b, bool) { return b < a ? b : a; }},
        {"max_u", [](u64 a, u64 b, bool) { return b > a ? b : a; }},
        {"and_b", [](u64 a, u64 b, bool) { return a & b; }},
        {"or_b", [](u64 a, u64 b, bool) { return a | b; }},
        {"xor_b", [](u64 a, u64 b, bool) { return a ^ b; }},
        {"write_b", [](u64, u64 b, bool) { return b; }},
    };
    struct Case {
        std::string name;
        const Src2Op* op;
        bool wide;
        u32 offset;
    };
    std::vector<Case> cases;
    std::vector<std::string> bodies;
    for (const bool wide : {false, true})
        for (const Src2Op& op : ops)
            for (const u32 offset : {3u, 0x7ffdu, 0x8000u}) {  // +3 elements, -3 elements, from A[31:17] (0 here)
                // ds_min_i -> ds_min_src2_i32, ds_and_b -> ds_and_src2_b32, ds_add -> ds_add_src2_u32.
                std::string stem = op.stem, type = wide ? "64" : "32";
                std::string name;
                const std::size_t underscore = stem.find('_');
                if (underscore == std::string::npos) name = "ds_" + stem + "_src2_u" + type;
                else name = "ds_" + stem.substr(0, underscore) + "_src2_" + stem.substr(underscore + 1) + type;
                // Lane l's A is 64 * l + 32: B = A + 3, A - 3 or A (elements) stays in the lane's 64 bytes.
                const std::string body =
                    "  v_lshlrev_b32 v2, 6, v0\n  v_add_u32 v2, 32, v2\n"
                    "  s_mov_b32 s20, 0\n.Lfill:\n  v_lshlrev_b32 v6, 2, v0\n  v_add_u32 v6, s20, v6\n"
                    "  s_mov_b32 s21, 0x9e3779b1\n  v_mul_lo_u32 v7, v6, s21\n  ds_write_b32 v6, v7\n"
                    "  s_add_u32 s20, s20, 256\n  s_cmp_lt_u32 s20, 0x1000\n  s_cbranch_scc1 .Lfill\n"
                    "  s_waitcnt lgkmcnt(0)\n  " +
                    name + " v2 offset:" + std::to_string(offset) +
                    "\n  s_waitcnt lgkmcnt(0)\n"
                    "  s_mov_b32 s20, 0\n.Lcopy:\n  v_lshlrev_b32 v6, 2, v0\n  v_add_u32 v6, s20, v6\n"
                    "  ds_read_b32 v7, v6\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v6, v7, s[4:5]\n"
                    "  s_add_u32 s20, s20, 256\n  s_cmp_lt_u32 s20, 0x1000\n  s_cbranch_scc1 .Lcopy\n";
                cases.push_back({name, &op, wide, offset});
                bodies.push_back(body);
            }
    KernelOptions options;
    options.lds_bytes = 0x1000;
    const CodeObject co = assemble_kernels(bodies, options);  // one assembly for all
    for (std::size_t c = 0; c < cases.size(); ++c) {
        const std::string& name = cases[c].name;
        const Src2Op& op = *cases[c].op;
        const bool wide = cases[c].wide;
        const u32 offset = cases[c].offset;
        const unsigned size = wide ? 8 : 4;
        TestRun run(0x400);
        const DispatchResult r = run.run(build_program(co, co.kernel("k" + std::to_string(c))));
        INFO(name << " offset " << offset << (r.fault ? r.fault->message : std::string()));
        REQUIRE(r.ok());
        const auto lds = run.read(0, 0x400);
        std::vector<u32> want(0x400);
        for (u32 i = 0; i < 0x400; ++i) want[i] = (4 * i) * 0x9e3779b1u;
        const i32 elements = offset == 3 ? 3 : offset == 0x7ffd ? -3 : 0;
        for (u32 l = 0; l < 64; ++l) {
            const u32 a = 64 * l + 32, b = u32(i32(a) + elements * i32(size));
            auto get = [&](u32 at) { return wide ? (want[at / 4] | u64(want[at / 4 + 1]) << 32) : u64(want[at / 4]); };
            const u64 result = op.apply(get(a), get(b), wide);
            want[a / 4] = u32(result);
            if (wide) want[a / 4 + 1] = u32(result >> 32);
        }
        CHECK(lds == want);
    }
}
