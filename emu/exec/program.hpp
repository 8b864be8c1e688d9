#pragma once
// A kernel pre-decoded for execution: one ExecInst per machine instruction,
// each with the function that executes it (picked once from the Op table)
// and its operands resolved to register numbers and constants, so that the
// run loop is `e.fn(wave, e)` and nothing else.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "emu/decode/inst.hpp"
#include "emu/exec/counters.hpp"
#include "emu/exec/dpp.hpp"
#include "emu/loader/code_object.hpp"

namespace dppgemm::emu {

inline constexpr unsigned hwreg_mode = 1;  // HW_REG_MODE, the hwreg id of s_getreg/s_setreg

struct Wave;
struct ExecInst;
using ExecFn = void (*)(Wave&, const ExecInst&);

// A resolved operand: 8 bytes, so that an ExecInst's destinations and
// sources fit the cache line the run loop reads anyway (ExecInst).
struct Src {
    enum class Kind : std::uint8_t {
        none,
        vgpr,   // v[index]
        agpr,   // a[index]
        sreg,   // Wave::sreg[index]: SGPRs, vcc, m0, exec, ttmp... by operand code
        imm,    // constant: `value`; a 64-bit one's high half is Program::constant_high[index]
        scc,    // SCC as 0/1
        vccz,   // VCC == 0
        execz,  // EXEC == 0
    };
    Kind kind = Kind::none;
    std::uint8_t dwords = 1;
    std::uint16_t index = 0;
    std::uint32_t value = 0;  // imm: the constant (its low half when 64-bit)

    bool is_vector() const { return kind == Kind::vgpr || kind == Kind::agpr; }
};
static_assert(sizeof(Src) == 8, "Src: 8 bytes (ExecInst's first cache line holds five)");

// Source transforms applied when a VALU op fetches its lanes.
enum SrcTransform : std::uint8_t {
    ST_ABS = 1,       // clear the sign bit
    ST_NEG = 2,       // flip the sign bit
    ST_FLUSH = 4,     // denormal -> signed zero
    ST_SDWA = 8,      // SDWA byte/word select (first, before abs/neg)
    ST_FLUSH64 = 16,  // f64 source: denormal -> signed zero (the 64-bit fetches apply it)
};

// One instruction of a multiply-add run, as compactly as the run loop
// needs it. Why: an ExecInst is two cache lines and the SGEMM main loop's code
// (about 600 instructions) does not fit the host's L1 cache, so reading 64
// ExecInsts per run cost cache misses (finish_run's counting loop alone was
// 5% of a 1024^3 dpp0 run under perf); a run's steps are 16 bytes each.
struct MultiplyAddStep {
    enum class Kind : std::uint8_t { general, direct, row_dpp };
    Kind kind = Kind::general;  // ExecInst::direct_vgprs / row_dpp_vgprs / neither
    std::uint8_t dst = 0;
    std::uint8_t src[3] = {0, 0, 0};  // VGPR numbers of src0..src2 (direct, row_dpp)
    // Packed (VOP3P) direct steps: src holds the VGPR of each source's low-result
    // dword (op_sel), src_hi that of its high-result dword (op_sel_hi); the
    // destination is dst, dst + 1.
    std::uint8_t src_hi[3] = {0, 0, 0};
    const DppPattern* dpp = nullptr;  // row_dpp: the (interned) pattern
};

// Build-time facts that choose a VALU op's plain form (sem_vector.cpp,
// "plain forms"), ExecInst::plain: one test of a byte instead of the
// operands' kinds, transforms and flags (about 35 host instructions of a
// plain v_add_u32, read from its disassembly).
enum PlainForm : std::uint8_t {
    PLAIN_SRC0 = 1,  // src0 is a VGPR, SGPR or constant, one dword, no SDWA, abs/neg or flush (DPP: PLAIN_NO_DPP)
    PLAIN_SRC1 = 2,
    PLAIN_SRC2 = 4,
    PLAIN_RESULT = 8,  // the result is a VGPR without output modifier, SDWA placement or flush
    PLAIN_SRC0_VGPR = 16,
    PLAIN_SRC1_VGPR = 32,
    PLAIN_SRC2_VGPR = 64,
    PLAIN_NO_DPP = 128,
};

// Laid out by use: the first 64 bytes (one cache line; the struct is aligned
// to it) hold what the run loop reads (fn, cls, multiply_add, valu_dpp,
// next) and what the common handlers read (the operands, the plain-form and
// flush flags, s_waitcnt's counts); the second line what the rarer paths
// read (the decoded Inst, DPP, multiply-add runs, LDS facts). Why: the
// waves of a workgroup run one after another to each barrier, and their
// VGPRs evict the code between two visits: with 176 bytes (three lines) per
// instruction, Worker::run alone had 556 K L1 read misses in a 256^3
// dpp0_32 launch, 372 K with this layout (cachegrind, 32 KiB 8-way L1).
struct alignas(64) ExecInst {
    // ---- first line: the run loop and the common handlers
    ExecFn fn = nullptr;
    std::uint32_t next = 0;   // index of the following instruction
    std::uint32_t index = 0;  // position in Program::code
    InstClass cls = InstClass::other;
    std::uint8_t multiply_add = 0;  // 1 for fp32 mac/fmac/mad/fma (Counters::valu_multiply_add)
    std::uint8_t valu_dpp = 0;      // 1 for a VALU instruction with a DPP source (Counters::valu_dpp)
    std::uint8_t plain = 0;         // PlainForm bits (use_general_paths clears them)
    bool flush_in = false;          // fp32 source denormals -> signed zero (every source)
    bool flush_out = false;  // result denormals -> signed zero (an f32 result, or an f64 one under the fp64 mode)
    // s_waitcnt: the vmcnt and lgkmcnt it waits for (Inst::waitcnt).
    std::uint8_t wait_vm = 63, wait_lgkm = 15;
    Src dst, sdst;  // vector/scalar destination; sdst: VOPC/carry mask destination
    Src src[3];

    // ---- second line
    const Inst* inst = nullptr;  // the decoded instruction (Program::insts)
    const DppPattern* dpp = nullptr;
    const MultiplyAddStep* multiply_add_steps = nullptr;  // Program::multiply_add_steps from this one on
    std::uint32_t target = 0;  // branch target index (Program::no_target when none or invalid)
    // ds_read/ds_write (sem_lds.cpp): the 16-bit offset, and the dwords per
    // lane (1..4) when the instruction reads or writes one whole-dword
    // element per lane, else 0: LDS accesses that repeat their memo's lane
    // pattern with every lane active then take sem_lds.cpp's one-pass path
    // (use_general_paths clears it). Here so that the access's common path
    // reads this line and its conflict memo only, not the decoded Inst (two
    // more lines) and the format table (callgrind, 256^3 dpp0_32).
    std::uint16_t lds_offset = 0;
    std::uint8_t lds_whole_dwords = 0;
    // ds_read/ds_write, two Wave::lds_verified slots, each 1 + the slot or 0
    // for none: in the low four bits the slot of its address VGPR, where it
    // records the lane pattern it finds the VGPR in; in the high four the
    // one it reads to skip looking (lds_address_verifier).
    // lds_verifier_slot(), lds_loop_slot().
    std::uint8_t lds_slots = 0;
    unsigned lds_verifier_slot() const { return lds_slots & 15u; }
    unsigned lds_loop_slot() const { return lds_slots >> 4; }
    // ds_read/ds_write: index + 1 of the ds_read/ds_write just before this
    // one in straight-line code that addresses through the same VGPR, which
    // nothing writes in between (program.cpp, lds_address_verifiers); 0: none.
    // When that one found the address VGPR in its conflict memo's lane
    // pattern, this one need not look again (sem_lds.cpp). With
    // lds_loop_slot(), across branches and barriers: on every path to this
    // one the VGPR had only uniform adds and nothing wrote EXEC since the
    // last access through it (a loop's access at a base that advances by an
    // SGPR or a constant), which left what it found in the wave's
    // Wave::lds_verified[lds_loop_slot() - 1]; this names that access (the
    // latest in the code where paths differ).
    std::uint32_t lds_address_verifier = 0;
    // Multiply-adds: how many instructions from this one on (at least 1) have
    // the same function and flush flags, so that one call can run them all.
    std::uint16_t multiply_add_run = 1;
    std::uint16_t multiply_add_run_dpp = 0;  // of those, how many have DPP (ExecInst::valu_dpp)
    // Of those, how many read and write their VGPRs in place (MultiplyAddStep::Kind
    // direct or row_dpp): all of them and none with DPP is a run of plain steps.
    std::uint16_t multiply_add_run_in_place = 0;
    // A ds_read heading an LDS-fed multiply-add block (program.cpp,
    // lds_multiply_add_blocks): how many instructions the block has, this
    // one included; else 0. Its function is then sem::lds_multiply_add_block.
    std::uint16_t lds_block = 0;
    Src soffset;                            // MUBUF soffset, SMEM soffset, FLAT/GLOBAL saddr
    std::uint8_t transform[3] = {0, 0, 0};  // SrcTransform bits per source
    bool output_modifiers = false;          // clamp or omod: apply_output_modifiers()
    bool sdwa_dst = false;                  // SDWA dst_sel other than DWORD: sdwa_place()
    // Destination and sources are VGPRs read and written as they are: no DPP,
    // SDWA, abs/neg or output modifier (a denormal flush may still apply).
    bool direct_vgprs = false;
    // The same, except that src0 goes through a DPP pattern that stays within
    // rows of 16 lanes (DppPattern::row_local): the multiply-add rows permute
    // src0 in registers instead of gathering a copy.
    bool row_dpp_vgprs = false;
    // ds_read: the data may go straight into the destination registers when
    // the read issues instead of when an s_waitcnt retires it, because on
    // every path nothing touches those registers, and no older load can
    // land in them, before a wait that certainly retires the read
    // (program.cpp, loads_landing_at_issue).
    bool lds_lands_at_issue = false;
    // The result cannot depend on the host's "denormals are zero" mode, which
    // a multiply-add run may have left set (host_float_mode.hpp): no host
    // floating-point arithmetic, or the function sets the mode it needs
    // (program.cpp, host_mode_free). The run loop restores the default
    // before any other instruction. In this line: the loop reads it only
    // while the mode is set.
    bool host_mode_free = false;
    // buffer_load_dword into a VGPR through an offset VGPR (offen, no
    // idxen): the form of the SGEMM kernels' global loads, which
    // sem_memory.cpp runs in one function when the V# is a raw buffer and
    // every lane is active and in range.
    bool buffer_dword_offen = false;
    // A vector memory load (vmem_load) whose data may go straight into its
    // destination registers at issue: the same fact as lds_lands_at_issue,
    // for the vmcnt counter (program.cpp, loads_landing_at_issue).
    bool vmem_lands_at_issue = false;
    // An LDS-fed multiply-add block's head whose runs may wait for the
    // block's reads (LdsBlockPlan): 1 + its index in Program::lds_block_plans;
    // else 0.
    std::uint8_t lds_block_plan = 0;
};
static_assert(sizeof(ExecInst) == 128, "ExecInst: two cache lines");
static_assert(offsetof(ExecInst, src) + sizeof(ExecInst::src) <= 64,
              "ExecInst: the run loop's and the common handlers' fields in the first cache line");

// An LDS-fed multiply-add block (ExecInst::lds_block) whose multiply-adds
// may all run after its reads (program.cpp, lds_block_plans; sem_lds.cpp,
// lds_multiply_add_block): every run is four direct v_mac_f32 or
// v_fmac_f32 steps (no DPP) that write the same four accumulators in the
// same order, which no read writes and no step reads; no read writes an
// address VGPR of the block. Each read's rows then go to the block's own
// rows (or straight into its VGPRs when it is their last writer and no step
// needs their value from before the block), and the runs go in one call
// with the accumulators in host registers (sem_vector.cpp,
// block_multiply_adds), in program order for each accumulator (the order
// the results depend on). Runs of four: the 32x32 kernels' 2 x 2 micro
// tile, where a run's call and its accumulators' loads and stores were
// most of its time; the 64x64 and 128x128 kernels' runs of 16 and 64 steps
// took 1.11x and 1.21x the time this way (held in groups of 16 and 8,
// dpp0_64 and dpp0 at 1024^3, one thread, 5 rounds).
struct LdsBlockPlan {
    static constexpr std::uint16_t from_rows = 0x8000;  // a source in the block's rows (low bits), else a VGPR
    static constexpr unsigned max_rows = 128, max_runs = 16, max_reads_checked_first = 32;
    struct Read {
        std::uint16_t row = 0;  // the block's row of its first dword (rows row .. row + dwords - 1)
        bool into_vgprs = false;
        std::uint16_t at = 0;  // from the head
        // The block's read, before this one, that is its straight-line
        // verifier (ExecInst::lds_address_verifier without a loop slot),
        // else -1.
        std::int8_t verified_by = -1;
    };
    std::vector<Read> reads;  // in block order, the head first
    // Whether the reads' checks may all come before any of them runs
    // (sem_lds.cpp, block_with_reads_checked_first): at most
    // max_reads_checked_first reads, each with a verifier (a loop slot or
    // an access before it), and, from no entry on lgkmcnt at the head, none
    // issued with the counter at its limit. Then, from the head: the first
    // run, the block's runs and waits, the smallest vmcnt a wait asks for,
    // and the reads still on lgkmcnt at the end.
    bool checks_first = false;
    // And every read's verifier is a loop slot or a read of the block, so
    // that what the checks found may be kept (Wave::CheckedBlock).
    bool checks_kept = false;
    std::uint16_t first_run = 0, runs = 0, waits = 0;
    std::uint8_t lowest_wait_vm = 63, outstanding_at_end = 0;
    bool fused = false;  // v_fmac_f32 (else v_mac_f32)
    // Each run's steps are acc[2i + j] += a_i * b_j: a_i src0, b_j src1.
    bool outer_product = false;
    std::array<std::uint8_t, 4> accumulators{};  // the VGPR of each step
    // Per run, per step: src0 and src1, a VGPR or from_rows | a row.
    std::vector<std::uint16_t> sources;
    // After the whole block: the rows that hold a VGPR's final value.
    std::vector<std::pair<std::uint8_t, std::uint16_t>> copies;  // VGPR, row
};

struct Program {
    static constexpr std::uint32_t no_target = 0xffffffffu;

    Target target = Target::gfx900;  // a placeholder: the loader sets the code object's target
    std::string kernel_name;
    KernelDescriptor descriptor;
    KernelMetadata metadata;
    // Code address (in the code object) of pc 0: the kernel's first
    // instruction, or the first function it may call when that lies lower.
    std::uint64_t code_address = 0;
    // The code object's loadable image (segments at their vaddr), mapped
    // into the device address space at launch so that s_getpc-relative
    // data (constant tables) is readable; empty: only the kernel's code.
    std::vector<std::uint8_t> image;
    // The kernel's instructions and those of the functions it may call, by
    // pc (build_program(CodeObject, ...) decodes every sized function symbol
    // of the executable sections besides other kernels).
    std::vector<Inst> insts;
    std::uint32_t entry = 0;     // index of the kernel's first instruction, where waves start
    std::vector<ExecInst> code;  // insts.size() + 1: the last one faults (ran past the end)
    // Kernels that change the fp32 denorm mode (s_setreg of MODE): `code` built
    // for each mode (FloatDenormMode order; empty for the descriptor's own);
    // a wave runs the array of its current mode (Wave::code).
    std::array<std::vector<ExecInst>, 4> code_by_fp32_denorm;
    // High halves of 64-bit constants (Src::Kind::imm with two dwords: Src::index).
    std::vector<std::uint32_t> constant_high;
    std::vector<std::unique_ptr<DppPattern>> dpp_patterns;  // distinct patterns (instructions share them)
    std::vector<MultiplyAddStep> multiply_add_steps;        // by instruction index
    std::vector<LdsBlockPlan> lds_block_plans;              // ExecInst::lds_block_plan
    unsigned vgprs_used = 0;                                // highest VGPR index touched + 1 (zeroed per wave)
    unsigned lds_verifier_slots = 0;                        // Wave::lds_verified slots used (cleared per wave)
    unsigned agprs_used = 0;
    // Some instruction's effect depends on the order in which a workgroup's
    // waves run between two barriers (see build_code): launch() then runs
    // the waves one after another even where it could spread them over threads.
    bool wave_order_matters = false;

    // Index of the instruction starting at byte offset `pc`, or no_target.
    std::uint32_t index_of(std::int64_t pc) const;
    // The code for an fp32 denorm mode; nullptr when not built.
    const ExecInst* code_for(FloatDenormMode fp32_denorm) const;
    // "s_endpgm" etc. for messages.
    std::string disassemble(std::uint32_t index) const;
};

// Pre-decodes a kernel. Instructions without semantics (and undecodable
// words) become functions that stop the run naming the instruction, so a
// kernel only fails if it reaches one.
Program build_program(const Kernel& kernel, Target target);
// The same with the code object's image (see Program::image).
Program build_program(const CodeObject& code_object, const Kernel& kernel);

// Where AGPR 0 sits in the wave's vector file (Wave::v): accum_offset on
// targets with the unified file (gfx90a+), max_vgprs elsewhere (gfx908's
// separate file).
unsigned agpr_base(const Program& program);

// Why instruction `e` of `program` cannot run as encoded: a VGPR or AGPR
// past the kernel's allocation (the descriptor's VGPR count; gfx90a+: AGPRs
// from accum_offset up to it) or a multi-dword tuple at an odd register on
// gfx90a+ (LLVM's needsAlignedVGPRs); empty when it can. build_program
// makes such an instruction fault with this message when it is reached.
std::string register_operand_error(const Program& program, const ExecInst& e);

// Clears the build-time facts that select fast paths (ExecInst::direct_vgprs,
// row_dpp_vgprs, plain, multiply_add_run(_in_place), lds_lands_at_issue,
// lds_address_verifier, lds_slots, lds_whole_dwords, buffer_dword_offen,
// vmem_lands_at_issue, lds_block, DppPattern::row_local; SALU forms and
// LDS-fed blocks' heads go back to their op's general function), in every denorm mode's
// code, so that each instruction takes the general path (fetch, a
// lane-by-lane gather, commit): tests run a program both ways and compare
// the registers bit for bit.
void use_general_paths(Program& program);

// The semantics table: Op -> function and class. Exposed for tests (e.g. to
// list what is implemented).
bool has_semantics(Op op);

}  // namespace dppgemm::emu
