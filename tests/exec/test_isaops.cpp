// The instructions and hardware registers ordinary hipcc output needs beyond
// plain arithmetic: hipcc kernels (hip/isaops.hip, gfx906 and gfx90a, -O2 and
// -O0 -g) against host results, and hand-assembled kernels for each 64-bit
// atomic, the DS atomics, ds_append/consume, s_getreg and the clocks,
// against values from the ISA pseudocode.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "emu/exec/apertures.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

struct Build {
    const char* arch;
    const char* options;
};
constexpr Build builds[] = {{"gfx906", "-O2"}, {"gfx906", "-O0 -g"}, {"gfx90a", "-O2"}, {"gfx90a", "-O0 -g"}};

Program hip_program(const Build& b, const char* kernel) {
    const CodeObject& co = hip_code_object("isaops.hip", b.arch, b.options);
    return build_program(co, co.kernel(kernel));
}

i32 sext(u32 x, unsigned bits) { return i32(x << (32 - bits)) >> (32 - bits); }

}  // namespace

// One test case, so that one process compiles the four builds once (sections share the cache).
TEST_CASE("hipcc programs for gfx906 and gfx90a at -O2 and -O0 -g against host results", "[hip][isaops]") {
    SECTION("64-bit and double atomicAdd/Min/Max/CAS on global memory") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "atomics64");
            const int n = 300;
            std::vector<u64> in(n);
            for (int i = 0; i < n; ++i) in[i] = (u64(i + 1) * 0x9e3779b97f4a7c15ull) >> (i % 13);
            DeviceMemory memory;
            const u64 d_in = memory.allocate(8 * n), d_counters = memory.allocate(32), d_sum = memory.allocate(8);
            memory.write(d_in, in.data(), 8 * n);
            const u64 init[4] = {0, ~0ull, 0, 0};
            memory.write(d_counters, init, 32);
            run_1d(memory, p, n, 128, 2, d_in, d_counters, d_sum, n);
            u64 got[4];
            double sum = 0;
            memory.read(d_counters, got, 32);
            memory.read(d_sum, &sum, 8);
            u64 want_sum = 0, want_min = ~0ull, want_max = 0;
            double want_double = 0;  // multiples of 1/4 below 2^24: exact in any order
            for (u64 v : in) {
                want_sum += v;
                want_min = std::min(want_min, v);
                want_max = std::max(want_max, v);
                want_double += double(v & 0xffff) * 0.25;
            }
            CHECK(got[0] == want_sum);
            CHECK(got[1] == want_min);
            CHECK(got[2] == want_max);
            CHECK(got[3] == 2 * want_sum);
            CHECK(sum == want_double);
        }
    }

    SECTION("atomicMin/Max/Add on __shared__ with the old value used") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "shared_minmax");
            const int n = 300, block = 128, groups = (n + block - 1) / block;
            std::vector<i32> in(n);
            for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 500;
            DeviceMemory memory;
            const u64 d_in = memory.allocate(4 * n), d_out = memory.allocate(12 * groups),
                      d_first = memory.allocate(4 * n);
            memory.write(d_in, in.data(), 4 * n);
            run_1d(memory, p, n, block, 2, d_in, d_out, d_first, n);
            std::vector<i32> out(3 * groups);
            std::vector<u32> first(n);
            memory.read(d_out, out.data(), 12 * groups);
            memory.read(d_first, first.data(), 4 * n);
            for (int g = 0; g < groups; ++g) {
                i32 low = 0x7fffffff, high = -0x7fffffff - 1;
                u64 total = 0;
                for (int i = g * block; i < (g + 1) * block; ++i) {
                    const i32 v = i < n ? in[i] : 0;
                    low = std::min(low, v);
                    high = std::max(high, v);
                    total += u32(v);
                }
                CHECK(out[3 * g] == low);
                CHECK(out[3 * g + 1] == high);
                CHECK(out[3 * g + 2] == i32(u32(total)));
                // The lane holding the minimum saw an old value at least as large.
                for (int i = g * block; i < std::min(n, (g + 1) * block); ++i)
                    if (in[i] == low) CHECK(first[i] == 1);
            }
        }
    }

    SECTION("clock64 and wall_clock64 never go backwards") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "clocks");
            DeviceMemory memory;
            const u64 d_out = memory.allocate(8 * 4 * 128);
            run_1d(memory, p, 128, 128, 1, d_out);
            std::vector<u64> out(4 * 128);
            memory.read(d_out, out.data(), out.size() * 8);
            for (int i = 0; i < 128; ++i) {
                INFO("work-item " << i);
                CHECK(out[4 * i] != 0);
                CHECK(out[4 * i] <= out[4 * i + 1]);
                CHECK(out[4 * i + 2] != 0);
                CHECK(out[4 * i + 2] <= out[4 * i + 3]);
            }
            // The second wave starts after the first has ended (one host thread, waves in turn up to s_endpgm).
            CHECK(out[4 * 0 + 1] <= out[4 * 64]);
        }
    }

    SECTION("__builtin_amdgcn_sdot2/udot4/sdot8/fdot2") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "dots");
            const int n = 200;
            std::vector<i32> a(n), bb(n), c(n);
            u64 state = 12345;
            auto next = [&] {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                return i32(state >> 32);
            };
            for (int i = 0; i < n; ++i) a[i] = next(), bb[i] = next(), c[i] = next();
            DeviceMemory memory;
            const u64 da = memory.allocate(4 * n), db = memory.allocate(4 * n), dc = memory.allocate(4 * n);
            const u64 d_out = memory.allocate(12 * n), d_fout = memory.allocate(4 * n);
            memory.write(da, a.data(), 4 * n);
            memory.write(db, bb.data(), 4 * n);
            memory.write(dc, c.data(), 4 * n);
            run_1d(memory, p, n, 64, 2, da, db, dc, d_out, d_fout, n);
            std::vector<i32> out(3 * n);
            std::vector<float> fout(n);
            memory.read(d_out, out.data(), 12 * n);
            memory.read(d_fout, fout.data(), 4 * n);
            for (int i = 0; i < n; ++i) {
                const u32 x = u32(a[i]), y = u32(bb[i]);
                i64 sdot2 = c[i], sdot8 = c[i];
                u64 udot4 = u32(c[i]);
                for (int k = 0; k < 2; ++k) sdot2 += i64(sext(x >> (16 * k), 16)) * sext(y >> (16 * k), 16);
                for (int k = 0; k < 4; ++k) udot4 += u64((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
                for (int k = 0; k < 8; ++k) sdot8 += i64(sext(x >> (4 * k), 4)) * sext(y >> (4 * k), 4);
                INFO("i " << i);
                CHECK(out[3 * i] == i32(u32(sdot2)));
                CHECK(u32(out[3 * i + 1]) == u32(udot4));
                CHECK(out[3 * i + 2] == i32(u32(sdot8)));
                const float want =
                    float(a[i] % 7) * 0.5f * float(c[i] % 3) + float(bb[i] % 5) * 0.25f * -1.5f + float(i);
                CHECK(fout[i] == want);
            }
        }
    }

    SECTION("sin/cos of double, large arguments included (v_trig_preop_f64)") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "sines");
            const std::vector<double> x = {0.5,  -2.0,    100.0,    1e5,   -3.7e9,
                                           1e22, 6.0e100, -1.2e200, 1e300, 0x1.fffffffffffffp1023};
            const int n = int(x.size());
            DeviceMemory memory;
            const u64 d_x = memory.allocate(8 * n), d_out = memory.allocate(16 * n);
            memory.write(d_x, x.data(), 8 * n);
            run_1d(memory, p, n, 64, 1, d_x, d_out, n);
            std::vector<double> out(2 * n);
            memory.read(d_out, out.data(), 16 * n);
            // The device library's sin/cos are within 1 ulp (ROCm's ocml); host libm is within 1 ulp of the exact
            // value.
            auto ulps = [](double a, double b) {
                i64 ia, ib;
                std::memcpy(&ia, &a, 8);
                std::memcpy(&ib, &b, 8);
                if (ia < 0) ia = INT64_MIN - ia;
                if (ib < 0) ib = INT64_MIN - ib;
                return ia > ib ? u64(ia - ib) : u64(ib - ia);
            };
            for (int i = 0; i < n; ++i) {
                INFO("x = " << x[i] << ": sin " << out[2 * i] << " vs " << std::sin(x[i]) << ", cos " << out[2 * i + 1]
                            << " vs " << std::cos(x[i]));
                CHECK(ulps(out[2 * i], std::sin(x[i])) <= 2);
                CHECK(ulps(out[2 * i + 1], std::cos(x[i])) <= 2);
            }
        }
    }

    SECTION("local arrays and a non-inlined call use the stack (-O0 reads SH_MEM_BASES)") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "stack");
            const int n = 150;
            std::vector<i32> in(n);
            for (int i = 0; i < n; ++i) in[i] = (i * 31 + 7) % 101;
            DeviceMemory memory;
            const u64 d_in = memory.allocate(4 * n), d_out = memory.allocate(4 * n);
            memory.write(d_in, in.data(), 4 * n);
            run_1d(memory, p, n, 64, 2, d_in, d_out, n);
            std::vector<i32> out(n);
            memory.read(d_out, out.data(), 4 * n);
            for (int i = 0; i < n; ++i) {
                i32 local[16];
                for (int k = 0; k < 16; ++k) local[k] = in[(i + k) % n];
                local[in[i] & 15] += 1000;
                i32 want = 0;
                for (int k = 0; k < 16; ++k) want += local[k] * (k + 1);
                INFO("i " << i);
                CHECK(out[i] == want);
            }
        }
    }
}

// ---- hand-assembled: every 64-bit atomic --------------------------------------

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

TEST_CASE("global/flat/buffer 64-bit integer atomics with and without return", "[memory][atomic][isaops]") {
    Atomic64Checks checks;
    for (const Atomic64& a : integer_atomics64) add_atomic64_on_memory(checks, a, false, "gfx906");
    checks.run();
}

TEST_CASE("gfx90a global/flat/buffer f64 atomics add/min/max", "[memory][atomic][isaops]") {
    Atomic64Checks checks;
    for (const Atomic64& a : float_atomics64) add_atomic64_on_memory(checks, a, true, "gfx90a");
    checks.run();
}

TEST_CASE("64-bit LDS atomics with and without return", "[lds][atomic][isaops]") {
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

TEST_CASE("ds_min/max_rtn_i32/u32 return the old value", "[lds][atomic][isaops]") {
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

TEST_CASE("ds_append/ds_consume: one LDS counter at M0 + offset and every active lane gets the old value",
          "[lds][isaops]") {
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

TEST_CASE("s_getreg_b32 reads every hardware register the emulator models", "[alu][hwreg][isaops]") {
    // Two waves (block 128); wave 1 reads IB_STS with one load outstanding.
    const std::string body = R"(
  s_getreg_b32 s16, hwreg(HW_REG_SH_MEM_BASES)
  s_getreg_b32 s17, hwreg(HW_REG_SH_MEM_BASES, 0, 16)
  s_mov_b64 s[18:19], src_private_base
  s_mov_b64 s[20:21], src_shared_base
  s_getreg_b32 s22, hwreg(HW_REG_HW_ID)
  s_getreg_b32 s23, hwreg(HW_REG_GPR_ALLOC)
  s_getreg_b32 s24, hwreg(HW_REG_LDS_ALLOC)
  s_getreg_b32 s25, hwreg(HW_REG_TRAPSTS)
  s_cmp_eq_u32 s2, s2
  s_getreg_b32 s26, hwreg(HW_REG_STATUS)
  global_load_dword v9, v1, s[6:7]
  s_getreg_b32 s27, hwreg(HW_REG_IB_STS)
  s_waitcnt vmcnt(0)
  s_getreg_b32 s28, hwreg(HW_REG_IB_STS)
  s_getreg_b32 s29, hwreg(HW_REG_MODE)
  v_mov_b32 v2, s16
  v_mov_b32 v3, s17
  v_mov_b32 v4, s19
  v_mov_b32 v5, s21
  v_mov_b32 v6, s22
  v_mov_b32 v7, s23
  v_mov_b32 v8, s24
  v_mov_b32 v9, s25
  v_mov_b32 v10, s26
  v_mov_b32 v11, s27
  v_mov_b32 v12, s28
  v_mov_b32 v13, s29
  v_lshlrev_b32 v14, 6, v0
  global_store_dwordx4 v14, v[2:5], s[4:5]
  global_store_dwordx4 v14, v[6:9], s[4:5] offset:16
  global_store_dwordx4 v14, v[10:13], s[4:5] offset:32
)";
    KernelOptions options;
    options.lds_bytes = 1000;
    const CodeObject co = assemble_kernel(body, options);
    const Program p = build_program(co, co.kernels.at(0));
    TestRun run(128 * 16);
    run.block = {128, 1, 1};
    run.run_to_end(p);
    const auto out = run.read(0, 128 * 16);
    const u32 bases = u32(private_aperture_base >> 48) | u32(shared_aperture_base >> 48) << 16;
    for (unsigned wave = 0; wave < 2; ++wave) {
        const u32* w = &out[wave * 64 * 16];
        INFO("wave " << wave);
        CHECK(w[0] == bases);
        // -O0 code: s_getreg(SH_MEM_BASES, 0, 16) << 16 is the private aperture's high half.
        CHECK(w[1] << 16 == w[2]);
        CHECK(w[0] >> 16 << 16 == w[3]);
        CHECK(w[4] == (wave % 4) << 4);  // HW_ID: SIMD_ID = wave, WAVE_ID 0, TG_ID 0
        CHECK(w[5] == (u32(p.descriptor.vgpr_blocks) << 8 | u32((p.descriptor.allocated_sgprs + 15) / 16 - 1) << 24));
        CHECK(w[6] == 2u << 12);                    // 1000 bytes: two 512-byte granules
        CHECK(w[7] == 0);                           // TRAPSTS
        CHECK(w[8] == (1u | 1u << 10 | 1u << 16));  // STATUS: SCC, VCCZ (VCC still 0), VALID
        CHECK(w[9] == 1);                           // IB_STS: one load outstanding
        CHECK(w[10] == 0);
        CHECK(w[11] == 0x3f0);  // MODE: the descriptor's denorm modes, IEEE off
    }
}

TEST_CASE("s_memtime and s_memrealtime count up and land at lgkmcnt", "[alu][clock][isaops]") {
    const CodeObject co = assemble_kernel(R"(
  s_memtime s[16:17]
  s_memrealtime s[18:19]
  s_waitcnt lgkmcnt(0)
  s_memtime s[20:21]
  s_memrealtime s[22:23]
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s16
  v_mov_b32 v3, s17
  v_mov_b32 v4, s18
  v_mov_b32 v5, s19
  v_mov_b32 v6, s20
  v_mov_b32 v7, s21
  v_mov_b32 v8, s22
  v_mov_b32 v9, s23
  v_lshlrev_b32 v14, 5, v0
  global_store_dwordx4 v14, v[2:5], s[4:5]
  global_store_dwordx4 v14, v[6:9], s[4:5] offset:16
)");
    TestRun run(64 * 8);
    const DispatchResult r = run.run(build_program(co, co.kernels.at(0)));
    REQUIRE(r.ok());
    const auto out = run.read(0, 8);
    const u64 t0 = out[0] | u64(out[1]) << 32, w0 = out[2] | u64(out[3]) << 32;
    const u64 t1 = out[4] | u64(out[5]) << 32, w1 = out[6] | u64(out[7]) << 32;
    CHECK(t0 != 0);
    CHECK(t0 <= t1);
    CHECK(w0 != 0);
    CHECK(w0 <= w1);
}

TEST_CASE("LDS f64 min/max/cmpst and 64-bit mskor", "[lds][atomic][isaops]") {
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

TEST_CASE("LDS 32-bit float min/max/cmpst and mskor and wrap", "[lds][atomic][isaops]") {
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

TEST_CASE("ds_wrxchg2(st64)_rtn_b32/b64 swap at two addresses and return both", "[lds][isaops]") {
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
          "[memory][atomic][isaops]") {
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
          "[memory][atomic][smem][isaops]") {
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

TEST_CASE("inline float constants of 64-bit integer operands are doubles", "[alu][isaops]") {
    // LLVM (AMDGPUUsage, "inline constants": the 64-bit operand forms) and hipcc -O0 code: s_mov_b64 s[6:7], 0.5 is f64
    // 0.5.
    const CodeObject co = assemble_kernel(R"(
  s_mov_b64 s[20:21], 0.5
  s_mov_b64 s[22:23], -4.0
  v_lshrrev_b64 v[4:5], 0, 1.0
  v_mov_b32 v2, s20
  v_mov_b32 v3, s21
  v_mov_b32 v6, s22
  v_mov_b32 v7, s23
  v_lshlrev_b32 v14, 5, v0
  global_store_dwordx4 v14, v[2:5], s[4:5]
  global_store_dwordx2 v14, v[6:7], s[4:5] offset:16
)");
    TestRun run(64 * 8);
    REQUIRE(run.run(build_program(co, co.kernels.at(0))).ok());
    const auto out = run.read(0, 6);
    CHECK(out == std::vector<u32>{0, 0x3fe00000, 0, 0x3ff00000, 0, 0xc0100000});
}

TEST_CASE("ds src2 forms (gfx900-gfx908): MEM(A) = MEM(A) op MEM(A + offset elements)", "[lds][isaops]") {
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

TEST_CASE("s_cbranch_cdbgsys/user branches are not taken and s_wakeup does nothing", "[flow][isaops]") {
    const CodeObject co = assemble_kernel(R"(
  v_mov_b32 v2, 1
  s_cbranch_cdbgsys .Lskip
  s_cbranch_cdbguser .Lskip
  s_cbranch_cdbgsys_or_user .Lskip
  s_cbranch_cdbgsys_and_user .Lskip
  s_wakeup
  v_mov_b32 v2, 2
.Lskip:
  global_store_dword v1, v2, s[4:5]
)");
    TestRun run(64);
    REQUIRE(run.run(build_program(co, co.kernels.at(0))).ok());
    CHECK(run.read(0, 64) == std::vector<u32>(64, 2));
}

TEST_CASE("an unimplemented matrix op (fp8 MFMA) stops the run with an error naming the instruction", "[alu][isaops]") {
    KernelOptions options;
    options.mcpu = "gfx942";
    const CodeObject co = assemble_kernel("  v_mfma_f32_16x16x32_fp8_fp8 v[4:7], v[0:1], v[2:3], v[4:7]\n", options);
    TestRun run(64);
    const DispatchResult r = run.run(build_program(co, co.kernels.at(0)));
    REQUIRE(r.fault);
    INFO(r.fault->message);
    CHECK(r.fault->message.find("v_mfma_f32_16x16x32_fp8_fp8 v[4:7], v[0:1], v[2:3], v[4:7]") != std::string::npos);
    CHECK(r.fault->message.find("not implemented") != std::string::npos);
}

namespace {

// A typed buffer format as the V# gives it (word3 NUM_FORMAT 14:12, DATA_FORMAT 18:15).
struct TypedCase {
    const char* op;  // the instruction, without operands
    unsigned data_format, num_format;
    unsigned components, bits;  // of the format
};
enum : unsigned { unorm = 0, snorm = 1, uint_ = 4, sint_ = 5, float_ = 7 };

float half_value(u32 h) {
    const int e = int((h >> 10) & 0x1f), m = int(h & 0x3ff);
    const double v = e == 31 ? (m ? NAN : INFINITY) : e ? std::ldexp(1024.0 + m, e - 25) : std::ldexp(double(m), -24);
    return float((h & 0x8000) ? -v : v);
}
u32 half_bits(float f) {  // the host's IEEE conversion, round to nearest even
    const _Float16 h = _Float16(f);
    std::uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
}

// The register value of one format component (Vega ISA "Buffer Instructions",
// D3D conversion rules): UNORM u / (2^n - 1), integers zero/sign-extended, f16 widened.
u32 typed_load_reference(u32 raw, const TypedCase& c, bool d16) {
    if (c.num_format == uint_) return d16 ? raw & 0xffff : raw;
    if (c.num_format == sint_) return (c.bits == 32 ? raw : u32(sext(raw, c.bits))) & (d16 ? 0xffffu : ~0u);
    if (c.num_format == unorm) {
        const float v = float(raw) / float((1u << c.bits) - 1);
        return d16 ? half_bits(v) : bits(v);
    }
    if (c.num_format == snorm) {
        const float v = std::max(float(sext(raw, c.bits)) / float((1u << (c.bits - 1)) - 1), -1.0f);
        return d16 ? half_bits(v) : bits(v);
    }
    if (c.bits == 16 && !d16 && (raw & 0x7c00) == 0x7c00 && (raw & 0x3ff))  // NaN: payload kept, quieted
        return (raw & 0x8000) << 16 | 0x7fc00000u | (raw & 0x3ff) << 13;
    if (c.bits == 16) return d16 ? raw : bits(half_value(raw));
    return raw;
}

// The stored bits of one register component: UNORM round_even(clamp(f) * (2^n - 1)), NaN 0; integers their low bits.
u32 typed_store_reference(u32 value, const TypedCase& c, bool d16) {
    const u32 mask = c.bits == 32 ? ~0u : (1u << c.bits) - 1;
    if (c.num_format == uint_ || c.num_format == sint_) return (d16 ? value & 0xffff : value) & mask;
    if (c.num_format == unorm) {
        float f;
        if (d16) f = half_value(value & 0xffff);
        else std::memcpy(&f, &value, 4);
        if (std::isnan(f)) return 0;
        f = std::min(std::max(f, 0.0f), 1.0f);
        return u32(std::nearbyint(double(f) * mask));
    }
    if (c.num_format == snorm) {
        float f;
        if (d16) f = half_value(value & 0xffff);
        else std::memcpy(&f, &value, 4);
        if (std::isnan(f)) return 0;
        f = std::min(std::max(f, -1.0f), 1.0f);
        return u32(i32(std::nearbyint(double(f) * ((1u << (c.bits - 1)) - 1)))) & mask;
    }
    if (c.bits == 16) {
        if (d16) return value & 0xffff;
        float f;
        std::memcpy(&f, &value, 4);
        return half_bits(f);
    }
    return value;
}

}  // namespace

TEST_CASE("buffer_load/store_format_* convert per the resource's DATA_FORMAT and NUM_FORMAT", "[memory][isaops]") {
    // Spot checks of the conversions the reference uses (D3D rules).
    const TypedCase unorm8{"", 1, unorm, 1, 8};
    CHECK(typed_load_reference(255, unorm8, false) == 0x3f800000u);
    CHECK(typed_load_reference(0, unorm8, false) == 0u);
    CHECK(typed_store_reference(0x3f000000u, unorm8, false) == 128u);  // 0.5 * 255 = 127.5 -> even 128
    CHECK(typed_store_reference(0x7fc00000u, unorm8, false) == 0u);
    CHECK(typed_store_reference(0xbf800000u, unorm8, false) == 0u);
    CHECK(typed_store_reference(0x40000000u, unorm8, false) == 255u);
    const TypedCase f16{"", 2, float_, 1, 16};
    CHECK(typed_store_reference(0x3f801000u, f16, false) == 0x3c00u);  // 1 + 2^-11: tie to even
    CHECK(typed_store_reference(0x3f803000u, f16, false) == 0x3c02u);  // 1 + 3 * 2^-11: tie to even
    CHECK(typed_load_reference(0x3c00u, f16, false) == 0x3f800000u);
    const TypedCase snorm8{"", 1, snorm, 1, 8};
    CHECK(typed_load_reference(0x80, snorm8, false) == 0xbf800000u);  // -128 -> -1, as -127
    CHECK(typed_load_reference(0x81, snorm8, false) == 0xbf800000u);
    CHECK(typed_load_reference(0x7f, snorm8, false) == 0x3f800000u);
    CHECK(typed_store_reference(0xbf800000u, snorm8, false) == 0x81u);  // -1 -> -127
    CHECK(typed_store_reference(0x3f000000u, snorm8, false) == 64u);    // 63.5 -> even 64

    const TypedCase cases[] = {
        {"format_x", 4, float_, 1, 32},       {"format_xyzw", 14, uint_, 4, 32},
        {"format_xyzw", 13, sint_, 3, 32},    {"format_xyz", 11, float_, 2, 32},
        {"format_xyzw", 1, unorm, 1, 8},      {"format_xyzw", 10, unorm, 4, 8},
        {"format_xy", 3, uint_, 2, 8},        {"format_xyzw", 10, sint_, 4, 8},
        {"format_x", 2, uint_, 1, 16},        {"format_xy", 5, unorm, 2, 16},
        {"format_xyzw", 12, float_, 4, 16},   {"format_xy", 5, sint_, 2, 16},
        {"format_d16_x", 2, float_, 1, 16},   {"format_d16_xy", 3, unorm, 2, 8},
        {"format_d16_xyz", 12, uint_, 4, 16}, {"format_d16_xyzw", 10, sint_, 4, 8},
        {"format_d16_hi_x", 2, uint_, 1, 16}, {"format_d16_xyzw", 12, float_, 4, 16},
        {"format_xyzw", 10, snorm, 4, 8},     {"format_xy", 5, snorm, 2, 16},
        {"format_d16_xy", 3, snorm, 2, 8},
    };
    // Memory bytes and register values: mixed bits, with floats that matter to each conversion.
    std::vector<u32> memory(256), registers(256);
    const u32 floats[] = {0x3f000000u, 0x7fc00000u, 0xbf800000u, 0x40000000u, 0x3f801000u, 0x3f803000u,
                          0x3b808081u, 0x3e99999au, 0x477fe000u, 0x00000001u, 0x80000000u, 0x3f7fffffu};
    u32 seed = 12345;
    for (unsigned i = 0; i < 256; ++i) {
        seed = seed * 1103515245u + 12345u;
        memory[i] = seed ^ (seed >> 13);
        const u32 f = floats[i % 12];
        // Halves: low from the float list (as f16 when it fits), high from the bits.
        registers[i] = (i % 3 == 0)   ? f
                       : (i % 3 == 1) ? (half_bits(from_bits(f)) | (memory[i] & 0xffff0000u))
                                      : memory[i] * 7u;
    }
    const u32 sentinel = 0x5eed5eedu, background = 0xa5a5a5a5u;
    // Two passes over the cases: the first only collects each target's
    // kernels, assembled together (assemble_kernels) before the second runs
    // and checks them in the same order.
    std::map<std::string, std::vector<std::string>> bodies;  // by target
    std::map<std::string, CodeObject> code;
    std::map<std::string, unsigned> next_kernel;
    for (const bool collecting : {true, false}) {
        if (!collecting)
            for (const auto& [mcpu, list] : bodies) {
                KernelOptions options;
                options.mcpu = mcpu;
                code.emplace(mcpu, assemble_kernels(list, options));
            }
        for (const TypedCase& c : cases) {
            const bool d16 = std::string(c.op).find("d16") != std::string::npos;
            const bool hi = std::string(c.op).find("hi") != std::string::npos;
            const std::string suffix = std::string(c.op).substr(std::string(c.op).rfind('_') + 1);
            const unsigned count = unsigned(suffix.size()), element = c.components * c.bits / 8;
            const unsigned regs = d16 ? (count + 1) / 2 : count;
            const std::string vdata = regs == 1 ? "v4" : "v[4:" + std::to_string(3 + regs) + "]";
            // The last lane's element straddles the end: only its first component is in range.
            const u32 num_records = 63 * element + c.bits / 8;
            const u32 word3 = c.data_format << 15 | c.num_format << 12;
            std::ostringstream setup;
            setup << "  s_mov_b32 s20, s4\n  s_mov_b32 s21, s5\n  s_mov_b32 s22, " << num_records
                  << "\n  s_mov_b32 s23, 0x" << std::hex << word3 << std::dec << "\n  v_mul_u32_u24 v2, " << element
                  << ", v0\n  v_lshlrev_b32 v3, 4, v0\n";
            for (const bool store : {false, true}) {
                std::ostringstream body;
                body << setup.str();
                if (store) {
                    body << "  global_load_dwordx4 v[4:7], v3, s[6:7]\n  s_waitcnt vmcnt(0)\n  buffer_store_" << c.op
                         << " " << vdata << ", v2, s[20:23], 0 offen\n  s_waitcnt vmcnt(0)\n";
                } else {
                    for (unsigned r = 4; r < 8; ++r)
                        body << "  v_mov_b32 v" << r << ", 0x" << std::hex << sentinel << std::dec << "\n";
                    body << "  buffer_load_" << c.op << " " << vdata
                         << ", v2, s[20:23], 0 offen\n  s_waitcnt vmcnt(0)\n"
                         << "  global_store_dwordx4 v3, v[4:7], s[8:9]\n";
                }
                for (const char* mcpu : {"gfx900", "gfx90a"}) {
                    if (collecting) {
                        bodies[mcpu].push_back(body.str());
                        continue;
                    }
                    const CodeObject& co = code.at(mcpu);
                    const std::string kernel = "k" + std::to_string(next_kernel[mcpu]++);
                    TestRun run(256);
                    run.fill(0, store ? std::vector<u32>(256, background) : memory);
                    run.fill(1, registers);
                    const DispatchResult r = run.run(build_program(co, co.kernel(kernel)));
                    INFO(mcpu << "\n" << body.str() << (r.fault ? r.fault->message : std::string()));
                    REQUIRE(r.ok());
                    std::vector<std::uint8_t> bytes(1024);
                    const auto after = run.read(store ? 0 : 2, 256);
                    std::memcpy(bytes.data(), after.data(), 1024);
                    std::vector<std::uint8_t> source(1024);
                    std::memcpy(source.data(), memory.data(), 1024);
                    const unsigned bytes_per = c.bits / 8;
                    for (unsigned l = 0; l < 64; ++l) {
                        INFO("lane " << l);
                        if (!store) {
                            u32 want[4] = {sentinel, sentinel, sentinel, sentinel};
                            for (unsigned r2 = 0; r2 < regs; ++r2)
                                want[r2] = d16 && count == 1 ? (hi ? sentinel & 0xffff : sentinel & 0xffff0000u) : 0;
                            for (unsigned k = 0; k < count; ++k) {
                                u32 value;
                                if (k >= c.components) {
                                    const bool integer = c.num_format == uint_ || c.num_format == sint_;
                                    value = k != 3 ? 0 : integer ? 1 : d16 ? 0x3c00 : 0x3f800000u;
                                } else {
                                    const unsigned offset = l * element + k * bytes_per;
                                    u32 raw = 0;
                                    std::memcpy(&raw, &source[offset], bytes_per);
                                    value = offset < num_records ? typed_load_reference(raw, c, d16) : 0;
                                }
                                if (d16) want[k / 2] |= value << ((k & 1) || hi ? 16 : 0);
                                else want[k] = value;
                            }
                            for (unsigned k = 0; k < 4; ++k) CHECK(after[4 * l + k] == want[k]);
                        } else {
                            for (unsigned b = 0; b < element; ++b) {
                                const unsigned k = b / bytes_per, offset = l * element + b;
                                std::uint8_t want = 0xa5;
                                if (k < count && offset - (b % bytes_per) < num_records) {
                                    const u32 reg = d16 ? registers[4 * l + k / 2] >> ((k & 1) || hi ? 16 : 0)
                                                        : registers[4 * l + k];
                                    want = std::uint8_t(typed_store_reference(reg, c, d16) >> (8 * (b % bytes_per)));
                                }
                                CHECK(bytes[offset] == want);
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("buffer format accesses with an unimplemented format stop naming it", "[memory][isaops]") {
    const std::pair<u32, const char*> formats[] = {
        {6u << 15 | 7u << 12, "DATA_FORMAT 6 (10_11_11) and NUM_FORMAT 7 (FLOAT)"},
        {10u << 15 | 2u << 12, "DATA_FORMAT 10 (8_8_8_8) and NUM_FORMAT 2 (USCALED)"},
        {4u << 15 | 1u << 12, "DATA_FORMAT 4 (32) and NUM_FORMAT 1 (SNORM)"},
        {0u << 15 | 4u << 12, "DATA_FORMAT 0 (INVALID) and NUM_FORMAT 4 (UINT)"},
    };
    for (const auto& [word3, name] : formats) {
        std::ostringstream body;
        body << "  s_mov_b32 s20, s4\n  s_mov_b32 s21, s5\n  s_mov_b32 s22, 256\n  s_mov_b32 s23, 0x" << std::hex
             << word3 << "\n  buffer_load_format_x v4, v1, s[20:23], 0 offen\n  s_waitcnt vmcnt(0)\n";
        KernelOptions options;
        options.mcpu = "gfx906";
        const CodeObject co = assemble_kernel(body.str(), options);
        TestRun run(64);
        const DispatchResult r = run.run(build_program(co, co.kernels.at(0)));
        REQUIRE(r.fault);
        INFO(r.fault->message);
        CHECK(r.fault->message.find(name) != std::string::npos);
        CHECK(r.fault->message.find("not implemented") != std::string::npos);
    }
}
