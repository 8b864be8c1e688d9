// Program flow and dispatch: barriers across waves, dispatch setup (ids,
// hidden arguments, dispatch packet), errors that stop a run, thread-count
// independence.

#include <catch2/catch.hpp>

#include <map>
#include <mutex>

#include "emu/exec/wave.hpp"
#include "kernel_builder.hpp"

using namespace exec_test;

namespace {
Program build(const std::string& body, KernelOptions options = {}) {
    const CodeObject co = assemble_kernel(body, options);
    return build_program(co, co.kernels.at(0));
}
}  // namespace

TEST_CASE("s_barrier orders LDS traffic between the waves of a workgroup", "[flow][barrier]") {
    // 256 work-items, 4 waves: each writes its id to LDS, barrier, then reads
    // the slot of the work-item 64 further (another wave), mod 256. Without
    // the barrier, wave 0 would read slots that waves 1..3 have not written.
    KernelOptions options;
    options.lds_bytes = 1024;
    const Program program = build(R"(
  v_add_u32 v2, 7, v0
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_u32 v3, 256, v1
  v_and_b32 v3, 1023, v3
  ds_read_b32 v5, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_write_b32 v1, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v5, s[4:5]
)",
                                  options);
    TestRun run(256);
    run.block = {256, 1, 1};
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    const auto out = run.read(0, 256);
    for (unsigned i = 0; i < 256; ++i) CHECK(out[i] == 7 + (i + 64) % 256);
    CHECK(r.counters.waves == 4);
    CHECK(r.counters[InstClass::barrier] == 8);
}

TEST_CASE("workgroup ids, work-item ids, partial waves and hidden state", "[flow][dispatch]") {
    // Each work-item stores (workgroup id x) * 1000 + work-item id at its global index.
    const Program program = build(R"(
  s_mul_i32 s20, s2, 100
  v_add_u32 v3, s20, v0
  v_lshlrev_b32 v3, 2, v3
  s_mul_i32 s21, s2, 1000
  v_add_u32 v5, s21, v0
  global_store_dword v3, v5, s[4:5]
)");
    TestRun run(1024);
    run.grid = {5, 1, 1};
    run.block = {100, 1, 1};  // the second wave of each workgroup has 36 lanes
    run.threads = 3;
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    const auto out = run.read(0, 500);
    for (unsigned g = 0; g < 5; ++g)
        for (unsigned i = 0; i < 100; ++i) CHECK(out[g * 100 + i] == g * 1000 + i);
    CHECK(r.counters.workgroups == 5);
    CHECK(r.counters.waves == 10);
}

TEST_CASE("the dispatch packet holds the workgroup and grid sizes", "[flow][dispatch]") {
    const char* source = R"(
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dword s10, s[0:1], 0x4      // workgroup_size_x, y
  s_load_dword s11, s[0:1], 0xc      // grid_size_x
  s_load_dwordx2 s[12:13], s[2:3], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, s10
  v_mov_b32 v2, s11
  v_mov_b32 v0, 0
  global_store_dwordx2 v0, v[1:2], s[12:13]
  s_endpgm
.Lend:
.size k, .Lend-k
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
)";
    const CodeObject co = assemble_source(source, "gfx906");
    const Program program = build_program(co, co.kernels.at(0));
    DeviceMemory memory;
    const std::uint64_t out = memory.allocate(8);
    Kernargs args(program);
    args.set(0, out);
    LaunchConfig config;
    config.grid = {3, 1, 1};
    config.block = {64, 2, 1};
    config.kernarg = args.bytes();
    REQUIRE(launch(memory, program, config).ok());
    std::uint32_t values[2];
    memory.read(out, values, 8);
    CHECK(values[0] == (64u | (2u << 16)));
    CHECK(values[1] == 3u * 64u);
}

TEST_CASE("an unimplemented instruction stops the run naming it and its PC", "[flow][errors]") {
    const Program program = build("  s_set_gpr_idx_off\n");
    TestRun run(64);
    const DispatchResult r = run.run(program);
    REQUIRE(r.fault.has_value());
    CHECK(r.fault->instruction == "s_set_gpr_idx_off");
    CHECK(r.fault->what == "instruction not implemented");
    CHECK(r.fault->pc == program.code_address + program.insts[4].pc);
    CHECK(r.fault->message.find("pc 0x") != std::string::npos);
}

TEST_CASE("running past the end of the code and endless loops are errors", "[flow][errors]") {
    KernelOptions options;
    options.prologue = false;
    // Code without s_endpgm: one s_nop, then nothing.
    Kernel kernel;
    kernel.name = "no_end";
    kernel.code = {0x00, 0x00, 0x80, 0xbf};  // s_nop 0
    const Program past_end = build_program(kernel, Target::gfx906);
    DeviceMemory no_end_memory;
    LaunchConfig no_end_config;
    no_end_config.block = {64, 1, 1};
    const DispatchResult r = launch(no_end_memory, past_end, no_end_config);
    REQUIRE(r.fault.has_value());
    CHECK(r.fault->what == "executed past the end of the code (no s_endpgm)");
    CHECK(r.fault->pc == 4);
    const Program loop = build(".Lagain:\n  s_branch .Lagain\n", options);
    Kernargs args(loop);
    LaunchConfig config;
    config.block = {64, 1, 1};
    config.kernarg = args.bytes();
    config.watchdog = 1000;
    DeviceMemory memory;
    const DispatchResult endless = launch(memory, loop, config);
    REQUIRE(endless.fault.has_value());
    CHECK(endless.fault->what.find("watchdog") != std::string::npos);
    CHECK(endless.fault->instruction == "s_branch 65535");
}

TEST_CASE("results and counters are identical for 1, 2 and 5 threads", "[flow][threads]") {
    KernelOptions options;
    options.lds_bytes = 1024;
    const Program program = build(R"(
  s_mul_i32 s20, s2, 256
  v_add_u32 v3, s20, v0
  v_lshlrev_b32 v4, 2, v3
  global_load_dword v5, v4, s[6:7]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v5
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_sub_u32 v6, 1020, v1
  ds_read_b32 v7, v6
  s_waitcnt lgkmcnt(0)
  v_mul_f32 v7, 1.5, v7
  v_mac_f32 v7, v5, v5
  global_store_dword v4, v7, s[4:5]
)",
                                  options);
    std::vector<float> input(64 * 256);
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = float(i % 97) * 0.37f - 3.0f;
    std::vector<std::vector<std::uint32_t>> outputs;
    std::vector<Counters> counters;
    for (unsigned threads : {1u, 2u, 5u}) {
        TestRun run(64 * 256);
        run.fill_floats(1, input);
        run.grid = {64, 1, 1};
        run.block = {256, 1, 1};
        run.threads = threads;
        const DispatchResult r = run.run(program);
        REQUIRE(r.ok());
        outputs.push_back(run.read(0, 64 * 256));
        counters.push_back(r.counters);
    }
    CHECK(outputs[0] == outputs[1]);
    CHECK(outputs[0] == outputs[2]);
    CHECK(counters[0] == counters[1]);
    CHECK(counters[0] == counters[2]);
    const std::vector<std::uint32_t>& out = outputs[0];
    for (unsigned g = 0; g < 64; g += 9)
        for (unsigned i = 0; i < 256; i += 17) {
            const float mine = input[g * 256 + i], other = input[g * 256 + 255 - i];
            CHECK(out[g * 256 + i] == bits(1.5f * other + mine * mine));
        }
}

namespace {
// Counts what the observer interface reports; one per workgroup.
struct CountingObserver : WorkgroupObserver {
    std::uint64_t instructions = 0, lds_accesses = 0, global_accesses = 0, issues = 0, landings = 0, barriers = 0,
                  ended = 0;
    void before_instruction(const Wave&, const ExecInst&) override { ++instructions; }
    void memory_access(const Wave&, const ExecInst&, const MemoryAccess& a) override {
        ++(a.space == MemoryAccess::Space::lds ? lds_accesses : global_accesses);
    }
    void issued(const Wave&, const ExecInst&, const InFlightMemoryOp&) override { ++issues; }
    void landed(const Wave&, const InFlightMemoryOp&) override { ++landings; }
    void barrier_released(std::uint32_t) override { ++barriers; }
    void wave_ended(const Wave&) override { ++ended; }
};
struct CountingDispatch : DispatchObserver {
    std::mutex mutex;
    std::map<std::uint64_t, CountingObserver> finished;
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override { return std::make_unique<CountingObserver>(); }
    void finish(std::uint64_t id, std::unique_ptr<WorkgroupObserver> o) override {
        std::lock_guard<std::mutex> lock(mutex);
        finished[id] = *static_cast<CountingObserver*>(o.get());
    }
};
}  // namespace

TEST_CASE("checkers observe instructions, memory, counters and barriers per workgroup", "[flow][observer]") {
    KernelOptions options;
    options.lds_bytes = 1024;
    const Program program = build(R"(
  global_load_dword v5, v1, s[6:7]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v5
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v6, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
)",
                                  options);
    TestRun run(256);
    run.grid = {3, 1, 1};
    run.block = {128, 1, 1};
    run.threads = 2;
    CountingDispatch observer;
    run.observer = &observer;
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    REQUIRE(observer.finished.size() == 3);
    for (const auto& [id, o] : observer.finished) {
        CHECK(o.instructions == r.counters.wave_instructions() / 3);
        CHECK(o.lds_accesses == 2 * 2);     // 2 waves x (write + read)
        CHECK(o.global_accesses == 2 * 4);  // 2 waves x (s_load x2 + load + store)
        CHECK(o.issues == 2 * 6);           // per wave: s_load x2, global load and store, ds write and read
        CHECK(o.landings == 2 * 5);         // the final store is never waited for, so it never retires
        CHECK(o.barriers == 1);
        CHECK(o.ended == 2);
    }
}

TEST_CASE("the watchdog stops a wave at the first branch past its limit, observed or not", "[flow][observer]") {
    // "more than N instructions in one wave": the branch that makes the
    // wave's count pass N faults, itself counted. The run loop without an
    // observer counts by stretches between branches; the branch must still
    // see the exact count.
    const Program program = build(R"(
.Lagain:
  s_add_u32 s20, s20, 1
  s_nop 0
  s_branch .Lagain
)");
    std::uint32_t loop = 0;  // the straight-line set-up before it runs once
    while (program.disassemble(loop) != "s_add_u32 s20, s20, 1") ++loop;
    constexpr std::uint64_t limit = 1000;
    const std::uint64_t trips = (limit - loop) / 3 + 1;  // the first with loop + 3 trips > limit
    REQUIRE(loop + 3 * trips > limit);
    REQUIRE(loop + 3 * (trips - 1) <= limit);
    for (const bool observed : {false, true}) {
        INFO((observed ? "observed" : "unobserved"));
        CountingDispatch observer;
        TestRun run(64);
        run.watchdog = limit;
        if (observed) run.observer = &observer;
        const DispatchResult r = run.run(program);
        REQUIRE(r.fault.has_value());
        CHECK(r.fault->what == "watchdog: more than 1000 instructions in one wave (endless loop?)");
        CHECK(r.fault->instruction == "s_branch 65533");
        CHECK(r.counters[InstClass::branch] == trips);
        CHECK(r.counters[InstClass::nop] == trips);
        CHECK(r.counters.wave_instructions() == loop + 3 * trips);
    }
}

namespace {
// Stops the run, as a checker stopping at its first finding does, at the
// stop_at-th time instruction `index` is announced (before_instruction) or,
// with from_access, the stop_at-th time its handler reports its LDS access
// (memory_access, called from inside the instruction).
struct StoppingObserver : WorkgroupObserver {
    std::uint32_t index = 0;
    unsigned stop_at = 0;
    bool from_access = false;
    unsigned seen = 0;
    void before_instruction(const Wave&, const ExecInst& e) override {
        if (!from_access && e.index == index && ++seen == stop_at)
            throw ExecError(FaultKind::checker_stop, "stopped before it");
    }
    void memory_access(const Wave&, const ExecInst& e, const MemoryAccess&) override {
        if (from_access && e.index == index && ++seen == stop_at)
            throw ExecError(FaultKind::checker_stop, "stopped inside it");
    }
    bool observes_global_memory() const override { return false; }
};
struct StoppingDispatch : DispatchObserver {
    StoppingObserver plan;
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override {
        return std::make_unique<StoppingObserver>(plan);
    }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver>) override {}
};
}  // namespace

TEST_CASE("an observer that stops the run before an instruction leaves it uncounted, one inside it counts it",
          "[flow][observer]") {
    // WorkgroupObserver::before_instruction comes before the instruction
    // runs: a throw there (a checker's stop_at_first) means it did not run.
    // memory_access comes from inside it: it ran, up to its access.
    KernelOptions options;
    options.lds_bytes = 1024;
    const Program program = build(R"(
  s_mov_b32 s20, 0
.Lloop:
  s_add_u32 s20, s20, 1
  ds_write_b32 v1, v0
  s_nop 0
  s_cmp_lt_u32 s20, 5
  s_cbranch_scc1 .Lloop
)",
                                  options);
    std::uint32_t loop = 0;  // the straight-line set-up before the loop, s_mov_b32 included
    while (program.disassemble(loop) != "s_add_u32 s20, s20, 1") ++loop;
    const auto index_of = [&](const std::string& text) {
        std::uint32_t i = loop;
        while (program.disassemble(i) != text) ++i;
        return i;
    };
    for (const bool from_access : {false, true}) {
        INFO((from_access ? "stopped inside ds_write_b32" : "stopped before s_nop"));
        StoppingDispatch observer;
        observer.plan.index = index_of(from_access ? "ds_write_b32 v1, v0" : "s_nop 0");
        observer.plan.stop_at = 3;
        observer.plan.from_access = from_access;
        TestRun run(64);
        run.observer = &observer;
        const DispatchResult r = run.run(program);
        REQUIRE(r.fault.has_value());
        CHECK(r.fault->what == (from_access ? "stopped inside it" : "stopped before it"));
        CHECK(r.fault->instruction == (from_access ? "ds_write_b32 v1, v0" : "s_nop 0"));
        // Two whole trips, then the third's s_add_u32 and ds_write_b32.
        CHECK(r.counters[InstClass::branch] == 2);
        CHECK(r.counters[InstClass::nop] == 2);
        CHECK(r.counters.wave_instructions() == loop + 2 * 5 + 2);
    }
}

namespace {
// Watches the instructions at the given indices only and records what it sees.
struct SubsetObserver : WorkgroupObserver {
    std::vector<std::uint8_t> watched;
    std::vector<std::uint32_t> seen;
    void before_instruction(const Wave&, const ExecInst& e) override { seen.push_back(e.index); }
    const std::uint8_t* watched_instructions() const override { return watched.data(); }
};
struct SubsetDispatch : DispatchObserver {
    std::vector<std::uint8_t> watched;
    std::vector<std::uint32_t> seen;
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override {
        auto o = std::make_unique<SubsetObserver>();
        o->watched = watched;
        return o;
    }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver> o) override {
        seen = static_cast<SubsetObserver*>(o.get())->seen;
    }
};
}  // namespace

TEST_CASE("an observer sees exactly the instructions it watches, inside multiply-add runs too", "[flow][observer]") {
    // Six v_fmac_f32 in a row run as one multiply-add run when fp32 denormals
    // are flushed (mode 0) and one by one otherwise (mode 3): both must
    // announce the watched ones, in order, and no others.
    for (unsigned denorm : {0u, 3u}) {
        KernelOptions options;
        options.denorm_mode_32 = denorm;
        const Program program = build(R"(
  v_mov_b32 v2, 1.0
  v_mov_b32 v3, 2.0
  v_fmac_f32 v4, v2, v3
  v_fmac_f32 v5, v2, v3
  v_fmac_f32 v6, v2, v3
  v_fmac_f32 v7, v2, v3
  v_fmac_f32 v8, v2, v3
  v_fmac_f32 v9, v2, v3
  global_store_dword v1, v9, s[4:5]
)",
                                      options);
        std::uint32_t mac = 0;
        while (program.disassemble(mac).rfind("v_fmac_f32", 0) != 0) ++mac;
        REQUIRE(program.code[mac].multiply_add_run == 6);
        REQUIRE(program.code[mac].flush_in == (denorm == 0));  // the run executes in one call only when flushing
        SubsetDispatch observer;
        observer.watched.assign(program.code.size(), 0);
        const std::vector<std::uint32_t> expected = {mac, mac + 2, mac + 3, mac + 5, mac + 6};
        for (std::uint32_t i : expected) observer.watched[i] = 1;
        TestRun run(64);
        run.observer = &observer;
        REQUIRE(run.run(program).ok());
        INFO("fp32 denorm mode " << denorm);
        CHECK(observer.seen == expected);
    }
}

TEST_CASE("global atomics from many workgroups add up", "[flow][atomics]") {
    const Program program = build(R"(
  v_mov_b32 v2, 0
  v_mov_b32 v3, 1
  global_atomic_add v2, v3, s[4:5]
  global_atomic_add v5, v2, v0, s[6:7] glc
  s_waitcnt vmcnt(0)
)");
    TestRun run(64);
    run.grid = {40, 1, 1};
    run.threads = 4;
    REQUIRE(run.run(program).ok());
    CHECK(run.read(0, 1)[0] == 40u * 64u);
    CHECK(run.read(1, 1)[0] == 40u * (63u * 64u / 2u));
}

TEST_CASE("s_getpc_b64-relative loads read the code object's constant data", "[flow][getpc]") {
    const Program program = build(R"(
  s_getpc_b64 s[20:21]
  s_add_u32 s20, s20, table@rel32@lo+4
  s_addc_u32 s21, s21, table@rel32@hi+12
  s_load_dwordx2 s[22:23], s[20:21], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, s22
  v_mov_b32 v6, s23
  v_mov_b32 v7, 0
  global_store_dwordx2 v7, v[5:6], s[4:5]
  s_endpgm
.section .rodata.table,"a",@progbits
.p2align 4
table:
  .long 0x12345678, 0x9abcdef0
.text
)");
    TestRun run(64);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : ""));
    REQUIRE(r.ok());
    const auto out = run.read(0, 2);
    CHECK(out[0] == 0x12345678u);
    CHECK(out[1] == 0x9abcdef0u);
}

namespace {
// Records every LDS access's pattern id with the pattern it stands for.
struct LdsPattern {
    std::uint64_t lanes = 0;
    unsigned addresses_per_lane = 0, bytes_per_lane = 0;
    std::uint64_t origin_byte_in_dword = 0;
    std::vector<std::uint64_t> relative;  // address - the first active lane's, 0 for inactive lanes
    bool operator==(const LdsPattern& o) const {
        return lanes == o.lanes && addresses_per_lane == o.addresses_per_lane && bytes_per_lane == o.bytes_per_lane &&
               origin_byte_in_dword == o.origin_byte_in_dword && relative == o.relative;
    }
};
struct PatternObserver : WorkgroupObserver {
    std::vector<std::pair<std::uint64_t, LdsPattern>> seen;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint64_t>> ids;  // by wave and instruction
    void memory_access(const Wave& w, const ExecInst& e, const MemoryAccess& a) override {
        if (a.space != MemoryAccess::Space::lds || !a.lanes) return;
        LdsPattern p{a.lanes, a.addresses_per_lane, a.bytes_per_lane, 0, {}};
        const std::uint64_t origin = a.address_of(0, __builtin_ctzll(a.lanes));
        p.origin_byte_in_dword = origin % 4;
        for (unsigned el = 0; el < a.addresses_per_lane; ++el)
            for (unsigned l = 0; l < 64; ++l)
                p.relative.push_back(((a.lanes >> l) & 1) ? a.address_of(el, l) - origin : 0);
        seen.emplace_back(a.pattern_id, p);
        ids[{w.id, e.index}].push_back(a.pattern_id);
    }
};
struct PatternDispatch : DispatchObserver {
    std::mutex mutex;
    std::vector<std::pair<std::uint64_t, LdsPattern>> seen;
    std::vector<std::vector<std::uint64_t>> ids;  // per wave and instruction, in order
    std::unique_ptr<WorkgroupObserver> start(std::uint64_t) override { return std::make_unique<PatternObserver>(); }
    void finish(std::uint64_t, std::unique_ptr<WorkgroupObserver> o) override {
        std::lock_guard<std::mutex> lock(mutex);
        const PatternObserver& mine = *static_cast<PatternObserver*>(o.get());
        seen.insert(seen.end(), mine.seen.begin(), mine.seen.end());
        for (const auto& [key, list] : mine.ids) ids.push_back(list);
    }
};
}  // namespace

TEST_CASE("LDS accesses carry pattern ids: one id, one lane pattern", "[flow][observer][lds]") {
    // A loop whose ds instructions repeat their lane pattern at a new base
    // (s21 steps), switch to another pattern halfway (a wider stride, fewer
    // lanes) and back; ds_read2 has two addresses per lane.
    const Program program = build(R"(
  v_and_b32 v2, 63, v0
  v_lshlrev_b32 v2, 2, v2
  v_lshlrev_b32 v3, 3, v2
  s_mov_b32 s21, 0
  s_mov_b32 s22, 0
.Lloop:
  s_cmp_eq_u32 s22, 3
  s_cbranch_scc1 .Lwide
  v_add_u32 v4, s21, v2
  s_branch .Laccess
.Lwide:
  s_mov_b64 exec, 0xffff
  v_add_u32 v4, s21, v3
.Laccess:
  ds_write_b32 v4, v0
  ds_read_b32 v5, v4 offset:2
  ds_read2_b32 v[6:7], v4 offset1:5
  s_waitcnt lgkmcnt(0)
  s_mov_b64 exec, -1
  s_add_u32 s21, s21, 4
  s_add_u32 s22, s22, 1
  s_cmp_lt_u32 s22, 6
  s_cbranch_scc1 .Lloop
)",
                                  [] {
                                      KernelOptions o;
                                      o.lds_bytes = 4096;
                                      return o;
                                  }());
    TestRun run(256);
    run.grid = {2, 1, 1};
    run.block = {128, 1, 1};
    run.threads = 2;
    PatternDispatch observer;
    run.observer = &observer;
    REQUIRE(run.run(program).ok());
    // 2 workgroups x 2 waves x 6 iterations x 3 accesses.
    REQUIRE(observer.seen.size() == 2 * 2 * 6 * 3);
    std::map<std::uint64_t, LdsPattern> by_id;
    for (const auto& [id, pattern] : observer.seen) {
        CHECK(id != 0);
        const auto [it, inserted] = by_id.emplace(id, pattern);
        CHECK(it->second == pattern);
    }
    // An instruction repeating its pattern keeps its id (iterations 0-2 and
    // 4-5); the wide iteration 3 differs from both neighbours.
    REQUIRE(observer.ids.size() == 2 * 2 * 3);
    for (const std::vector<std::uint64_t>& id : observer.ids) {
        REQUIRE(id.size() == 6);
        CHECK(id[1] == id[0]);
        CHECK(id[2] == id[0]);
        CHECK(id[3] != id[2]);
        CHECK(id[4] != id[3]);
        CHECK(id[5] == id[4]);
    }
}

TEST_CASE("a progress callback that throws: launch stops its workers and passes the exception on", "[flow][progress]") {
    // The first report comes while the workers run (a loop long enough for
    // that): the exception must leave launch after they are joined, not end
    // the process.
    const Program program = build(R"(
  s_mov_b32 s20, 20000
.Lloop:
  s_sub_u32 s20, s20, 1
  s_cmp_lg_u32 s20, 0
  s_cbranch_scc1 .Lloop
)");
    TestRun run(256);
    run.grid = {64, 1, 1};
    run.block = {64, 1, 1};
    run.threads = 2;
    unsigned reports = 0;
    run.progress = [&](std::uint64_t, std::uint64_t) {
        ++reports;
        throw std::runtime_error("stop");
    };
    CHECK_THROWS_WITH(run.run(program), "stop");
    CHECK(reports == 1);
}

TEST_CASE("a schedule is named parallel, random or random:SEED", "[flow][schedule]") {
    CHECK(Schedule::parse("parallel").kind == Schedule::Kind::parallel);
    CHECK(Schedule::parse("random").kind == Schedule::Kind::random);
    const Schedule seeded = Schedule::parse("random:18446744073709551615");
    CHECK(seeded.kind == Schedule::Kind::random);
    CHECK(seeded.seed == 18446744073709551615ull);
    CHECK(seeded.name() == "random:18446744073709551615");
    CHECK(Schedule::parse(seeded.name()).seed == seeded.seed);
    CHECK(Schedule{}.name() == "parallel");
    for (const char* bad :
         {"", "Random", "random:", "random:-1", "random:1x", "random:18446744073709551616", "serial"}) {
        INFO(bad);
        try {
            Schedule::parse(bad);
            FAIL("accepted");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()).find(std::string("'") + bad + "'") != std::string::npos);
        }
    }
}

TEST_CASE("GWS semaphores order workgroups of a cooperative launch", "[flow][gws]") {
    // Workgroups 0..2 wait on the semaphore of resource 2 (M0[21:16] 0 +
    // offset 2), read p0[0] and store it, then wait on resource 1 (M0[21:16]
    // 1 + offset 0). Workgroup 3 stores 42 to p0[0], passes every wave
    // queued on resource 2 with ds_gws_sema_release_all, then gives resource
    // 1 `count` credits with ds_gws_sema_br. The cooperative schedule runs
    // the workgroups in turns in order, so 0..2 are queued on resource 2
    // when 3 releases it.
    const Program program = build(R"(
  s_mov_b32 m0, 0
  v_mov_b32 v2, s12
  v_mov_b32 v3, 0
  v_mov_b32 v5, s2
  v_lshlrev_b32 v5, 2, v5
  s_cmp_eq_u32 s2, 3
  s_cbranch_scc1 producer
  ds_gws_sema_p offset:2 gds
  s_waitcnt lgkmcnt(0)
  buffer_wbinvl1_vol
  global_load_dword v4, v3, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_dword v5, v4, s[6:7]
  s_mov_b32 m0, 0x10000
  ds_gws_sema_p gds
  s_waitcnt lgkmcnt(0)
  global_store_dword v5, v2, s[8:9]
  s_branch done
producer:
  v_mov_b32 v4, 42
  global_store_dword v3, v4, s[4:5]
  s_waitcnt vmcnt(0)
  ds_gws_sema_release_all offset:2 gds
  s_mov_b32 m0, 0x10000
  ds_gws_sema_br v2 gds
done:
)");
    TestRun run(16);
    run.grid = {4, 1, 1};
    run.cooperative = true;
    SECTION("three credits pass the three waiting workgroups") {
        run.value[0] = 3;
        const DispatchResult r = run.run(program);
        INFO((r.fault ? r.fault->message : ""));
        REQUIRE(r.ok());
        CHECK(run.read(1, 3) == std::vector<std::uint32_t>{42, 42, 42});
        CHECK(run.read(2, 3) == std::vector<std::uint32_t>{3, 3, 3});
    }
    SECTION("two credits leave one waiting: a deadlock") {
        run.value[0] = 2;
        const DispatchResult r = run.run(program);
        REQUIRE(r.fault);
        CHECK(r.fault->kind == FaultKind::deadlock);
        CHECK(r.fault->instruction == "ds_gws_sema_p gds");
        CHECK(r.fault->workgroup == std::array<std::uint32_t, 3>{2, 0, 0});
        CHECK(r.fault->what ==
              "deadlock: every wave of the cooperative grid waits (1 on GWS resources); this one waits on resource 1 "
              "for its semaphore (counter 0)");
        CHECK(run.read(2, 3) == std::vector<std::uint32_t>{2, 2, 0});
    }
    SECTION("outside a cooperative launch there are no GWS resources") {
        run.cooperative = false;
        const DispatchResult r = run.run(program);
        REQUIRE(r.fault);
        CHECK(r.fault->kind == FaultKind::no_gws);
        CHECK(r.fault->instruction == "ds_gws_sema_p offset:2 gds");
    }
}

TEST_CASE("a GWS barrier over every workgroup of a cooperative grid", "[flow][gws]") {
    // As hipcc's grid sync: every wave stores its workgroup id; the first
    // wave of each workgroup meets the others' at the barrier of resource 0
    // (value workgroups - 1, which the launch initialised it to) while the
    // second waits at s_barrier; then each sums what all stored.
    const Program program = build(R"(
  s_mov_b32 m0, 0
  v_mov_b32 v2, s2
  s_lshl_b32 s21, s2, 9
  v_add_u32 v8, s21, v1
  global_store_dword v8, v2, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v3, 3
  v_cmp_gt_u32 vcc, 64, v0
  s_and_saveexec_b64 s[22:23], vcc
  s_cbranch_execz skip
  ds_gws_barrier v3 gds
  s_waitcnt lgkmcnt(0)
skip:
  s_or_b64 exec, exec, s[22:23]
  s_barrier
  buffer_wbinvl1_vol
  v_mov_b32 v6, 0
  s_mov_b32 s20, 0
loop:
  v_mov_b32 v5, s20
  global_load_dword v7, v5, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v6, v6, v7
  s_add_u32 s20, s20, 256
  s_cmp_lt_u32 s20, 2048
  s_cbranch_scc1 loop
  global_store_dword v8, v6, s[6:7]
)");
    TestRun run(512);
    run.grid = {4, 1, 1};
    run.block = {128, 1, 1};
    run.cooperative = true;
    const DispatchResult r = run.run(program);
    REQUIRE(r.ok());
    // Dword 64k (k = 0..7) was stored by wave k % 2 of workgroup k / 2.
    const auto out = run.read(1, 512);
    for (unsigned i = 0; i < 512; i += 64) CHECK(out[i] == 0 + 0 + 1 + 1 + 2 + 2 + 3 + 3);
}

TEST_CASE("s_cbranch_cdbgsys/user branches are not taken and s_wakeup does nothing", "[flow]") {
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
