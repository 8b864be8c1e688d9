// dppgemm: column-major SGEMM on hand-written gfx9 assembly kernels, run on an
// AMD GPU through HIP or, with no GPU, on dppgemm's own gfx9 emulator.
//
//   auto r = dppgemm::sgemm('N', 'T', m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
//   if (!r) std::cerr << r.message << "\n";
//
// Arguments mean exactly what they mean in reference BLAS SGEMM, and are checked
// the same way (Result::invalid_argument is the BLAS position, 1..13).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dppgemm {

// The kernel variants: one per row of dppgemm/variants.def, in its order, then
// `best` (per problem, the tuning table's choice, else the available row with
// the least VALU work, then the fewest LDS read requests; see best_variant).
enum class Variant : std::uint8_t {
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    name,
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    best
};

// One row of dppgemm/variants.def.
struct VariantInfo {
    Variant variant;
    const char* name;                          // "dpp1"
    const char* defines;                       // template parameters, "NAME=VALUE ..." ("B_QUAD_SHARED=1")
    const char* features;                      // target features it needs, "" = none ("row_newbcast")
    unsigned macro_tile;                       // C tile of a workgroup: macro_tile x macro_tile (128, 64)
    unsigned micro_tile;                       // C tile of a workitem: micro_tile x micro_tile (8, 4)
    std::uint64_t lds_read_requests_per_step;  // lane LDS read requests per workgroup step (macro tile x 8 k)
    std::int64_t extra_valu_per_step;          // VALU instructions per step beyond the first row of its tile's
    const char* idea;                          // one line
    bool keeps_denormals;                      // fp32 denormals kept (FP32_DENORMALS=1: fused v_fmac_f32)
};
enum class Backend : std::uint8_t { automatic, hip, emu };
enum class Status : std::uint8_t {
    success,
    invalid_argument,  // an argument reference BLAS rejects (see invalid_argument), or an Options
                       // value outside its enum (invalid_argument = 0)
    unsupported,       // legal in BLAS, outside what the kernels address (message says why)
    no_device,         // hip backend without a usable AMD GPU (and no fallback allowed)
    launch_failure,    // the backend failed to load or launch the kernel
    kernel_fault,      // the kernel faulted (emu: out-of-bounds access, bad instruction...)
};

// What the emu backend counted for one launch: one member per row of
// dppgemm/counters.def, which says what each one counts (docs/host.md,
// "Counters"). The same names in every JSON and CSV.
struct Counters {
#define DPPGEMM_INSTRUCTION_CLASS(name, counts) std::uint64_t name = 0;
#define DPPGEMM_COUNTER(name, counts) std::uint64_t name = 0;
#include "dppgemm/counters.def"
    // Every instruction once: the sum of the instruction classes.
    std::uint64_t wave_instructions() const {
        return 0
#define DPPGEMM_INSTRUCTION_CLASS(name, counts) +name
#include "dppgemm/counters.def"
            ;
    }
};

// One row of dppgemm/counters.def.
struct CounterInfo {
    const char* name;                 // "valu_dpp"
    bool instruction_class;           // a class of the partition that adds up to wave_instructions
    std::uint64_t Counters::*member;  // &Counters::valu_dpp
    const char* counts;               // what one unit is, one line
};
// Every row of dppgemm/counters.def, in table order.
inline constexpr CounterInfo counter_table[] = {
#define DPPGEMM_INSTRUCTION_CLASS(name, counts) {#name, true, &Counters::name, counts},
#define DPPGEMM_COUNTER(name, counts) {#name, false, &Counters::name, counts},
#include "dppgemm/counters.def"
};

// The GPU the emulator plays when none is named (dppgemm/targets.def).
#define DPPGEMM_DEFAULT_TARGET(name) inline constexpr const char* default_emu_target = #name;
#include "dppgemm/targets.def"

struct Options {
    Variant variant = Variant::best;
    Backend backend = Backend::automatic;         // automatic: hip when a GPU is there, else emu
    bool allow_emu_fallback = true;               // hip requested but no GPU: run on emu (said once on stderr)
    std::string emu_target = default_emu_target;  // the GPU the emulator plays
    unsigned threads = 0;                         // emu: host threads, 0 = all cores
    // emu: called from the launching thread as workgroups finish (done, total)
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    // emu: also model the launch's GPU time (Result::modeled), from traces of
    // its first and last workgroups on a cycle-approximate compute-unit model
    // (docs/performance-model.md).
    bool model = false;
    // emu, with `model`: run only the traced workgroups
    // (ModeledTime::traced_workgroups). C then holds their tiles and is
    // otherwise left as it was, and Result::counters cover those workgroups
    // alone: for modeling large problems quickly.
    bool model_only = false;
    // emu, with `model`: parameters to override, "name=value,name=value"
    // (the rows of emu/timing/parameters.def); an unknown name is invalid_argument.
    std::string model_parameters;
    // emu, with `model`: further parameter sets (each as model_parameters, on
    // top of it) to model the same traces with: Result::modeled_sets, in order.
    std::vector<std::string> model_parameter_sets;
    // The tuning table Variant::best consults (docs/tuning.md): a file; empty
    // = $DPPGEMM_TUNING_TABLE, else the table shipped for the target.
    std::string tuning_table;
};

// The modeled GPU time of one emu launch: modeled, never measured.
struct ModeledTime {
    std::string gpu;  // the board modeled ("Instinct MI50")
    double milliseconds = 0, cycles = 0;
    // Where the cycles went, summing to `cycles`, in the order of
    // modeled_time_components() (docs/performance-model.md, "Breakdown").
    std::vector<std::pair<std::string, double>> components;
    double lds_port_utilisation = 0;   // busy share of the two SIMD-pair LDS ports
    unsigned resident_workgroups = 0;  // at once on a CU
    std::string occupancy_limit;       // what limits them: "vgprs", "lds", ...
    std::uint64_t workgroups_on_cu = 0;
    unsigned vgprs = 0;           // VGPRs allocated per wave (the kernel descriptor's, granule-rounded)
    std::uint32_t lds_bytes = 0;  // LDS per workgroup
    // The workgroups whose traces fed the model, as (x, y, z) grid positions:
    // with Options::model_only the only ones that ran.
    std::vector<std::array<std::uint32_t, 3>> traced_workgroups;
};

struct Result {
    Status status = Status::success;
    int invalid_argument = 0;               // BLAS position of the illegal argument, 0 if none
    std::string message;                    // empty on success
    bool quick_return = false;              // nothing to compute (BLAS quick-return rules)
    Backend backend = Backend::automatic;   // the backend that ran
    std::string target;                     // e.g. "gfx906"
    std::string kernel;                     // e.g. "dppgemm_sgemm_dpp1_NT"
    std::optional<Counters> counters;       // emu only
    std::optional<ModeledTime> modeled;     // emu with Options::model
    std::vector<ModeledTime> modeled_sets;  // emu: one per Options::model_parameter_sets
    double milliseconds = 0;                // hip: GPU time measured with events; emu: emulation wall time
    explicit operator bool() const { return status == Status::success; }
};

// The names of ModeledTime::components, in their order ("valu", "other_issue", ...).
const std::vector<std::string>& modeled_time_components();
// Why Options::model_parameters text would be refused ("unknown model
// parameter 'x'"); empty when it is fine.
std::string model_parameters_error(const std::string& text);

// The arguments of one SGEMM as reference BLAS takes them (column-major,
// sgemm's order), for a caller that hands a call on before making it.
struct SgemmCall {
    char trans_a, trans_b;
    int m, n, k;
    float alpha;
    const float* a;
    int lda;
    const float* b;
    int ldb;
    float beta;
    float* c;
    int ldc;
};

// C = alpha * op(A) * op(B) + beta * C with host pointers (copied in and out).
Result sgemm(char trans_a, char trans_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
             int ldb, float beta, float* c, int ldc, const Options& options = {});

// Reference-BLAS argument checking alone: the Result sgemm would return for
// these arguments before running anything (success, invalid or quick return).
Result check_sgemm_arguments(char trans_a, char trans_b, int m, int n, int k, float alpha, int lda, int ldb, float beta,
                             int ldc);
// The same, then the pointers the call would read or write: a null A (7) or
// B (9) when alpha != 0 and K > 0, a null C (12) when there is work, is
// invalid_argument at that position (reference BLAS would crash on it; a
// quick return and alpha = 0 or K = 0 read no A or B, so null is legal there).
Result check_sgemm_arguments(char trans_a, char trans_b, int m, int n, int k, float alpha, const float* a, int lda,
                             const float* b, int ldb, float beta, const float* c, int ldc);

// Bytes of memory the host can still give without swapping, as Linux
// estimates them (/proc/meminfo MemAvailable); nullopt where unknown.
// dppgemm-bench checks the memory a run needs against it before allocating.
std::optional<std::uint64_t> available_host_memory();

// Every row of the variant table, in table order (not `best`).
const std::vector<VariantInfo>& variant_table();
// The row of a variant; nullptr for Variant::best.
const VariantInfo* variant_info(Variant variant);
// The rows built into this library for a target ("gfx906"; target-id
// suffixes such as ":xnack-" are ignored), in table order; empty for a target
// without kernels.
std::vector<Variant> available_variants(std::string_view target);
// What `best` runs on a target without a tuning table: among the available rows that keep fp32
// denormals (all available rows where none does: gfx900 has no v_fmac_f32)
// and have the largest macro tile, the one with the least extra VALU work,
// then the fewest LDS read requests
// (the kernels are VALU-bound in the model, docs/performance-model.md).
// nullopt when the target has no kernels.
std::optional<Variant> best_variant(std::string_view target);
// Why `variant` cannot run on `target`, e.g. "bcast is not available on gfx906
// (needs row_newbcast; built for gfx90a, gfx942)"; empty when it can, and
// for Variant::best.
std::string variant_unavailable_reason(Variant variant, std::string_view target);
// The rows `best` chooses among on a target, by fixed rule or tuning table:
// the available rows that keep fp32 denormals (all available rows where none
// does), so that `best` computes the same bits whichever it picks.
std::vector<Variant> best_candidates(std::string_view target);

// Tuning tables (docs/tuning.md, "The table format"): per target, per
// candidate kernel, layout and K, the time of the busiest compute unit at
// some counts of workgroups on it. Variant::best estimates each candidate's
// time for the problem's tile counts from them and runs the least. Written
// by dppgemm-tune; one shipped per kernel target, embedded in the library.
struct TuningPoint {
    std::int64_t workgroups = 1;  // on the busiest compute unit
    double milliseconds = 0;
};
struct TuningRow {
    Variant variant = Variant::best;
    std::string layout;  // "NN", "NT", "TN", "TT"
    std::int64_t k = 1;
    std::vector<TuningPoint> points;  // workgroups strictly ascending
    int line = 0;                     // where parse_tuning_table found it
};
struct TuningTable {
    std::string target;              // "gfx906"
    std::int64_t compute_units = 1;  // of the device the times are for
    double tie = 0;                  // times within this share of the least count as equal
    std::vector<TuningRow> rows;
    // The table's time for `variant` on this problem: its tile counts give
    // the workgroups on the busiest compute unit, ceil(tiles_m x tiles_n /
    // compute_units); the rows' points are interpolated linearly in those
    // (extended from the last two points beyond the last) and then in K
    // (extended from the nearest two K). nullopt when the variant has no row
    // for the layout.
    std::optional<double> estimate(Variant variant, char trans_a, char trans_b, std::int64_t m, std::int64_t n,
                                   std::int64_t k) const;
    // The candidate with the least estimate. Among those within `tie` of it:
    // the fixed rule's (best_variant(target)) if it is one, else the fewest
    // multiply-adds (tiles x macro tile^2), then the least extra VALU work,
    // then the fewest LDS read requests per step, then table order. nullopt
    // when no row holds the layout.
    std::optional<Variant> choose(char trans_a, char trans_b, std::int64_t m, std::int64_t n, std::int64_t k) const;
};
// The text of a table (what dppgemm-tune writes); `error` gets why not,
// naming `origin` and the line ("gfx906.tune:7: variant 'dpp9' is not a row
// of the variant table").
std::optional<TuningTable> parse_tuning_table(std::string_view text, std::string_view origin, std::string& error);
// The text parse_tuning_table reads back as `table`; `comments` go first, each
// line prefixed with "# ".
std::string format_tuning_table(const TuningTable& table, const std::vector<std::string>& comments = {});
// The table shipped for a target (embedded text); empty when there is none.
std::string_view shipped_tuning_table(std::string_view target);
// The table Variant::best asks for this target (Options::tuning_table's file,
// else $DPPGEMM_TUNING_TABLE, else the shipped one), as it reads it; nullopt
// with `error` saying why when it does not use one (cannot be read,
// malformed, for another target, none shipped).
std::optional<TuningTable> tuning_table_in_use(std::string_view target, const std::string& tuning_table,
                                               std::string& error);
// What Variant::best runs for this problem: the choice of the tuning table
// (Options::tuning_table, else $DPPGEMM_TUNING_TABLE, else the shipped one),
// else best_variant. A table that cannot be read, is
// malformed or is for another target is said once per process on stderr and
// not used. nullopt when the target has no kernels.
std::optional<Variant> best_variant(std::string_view target, char trans_a, char trans_b, std::int64_t m, std::int64_t n,
                                    std::int64_t k, const std::string& tuning_table = "");

const char* to_string(Status status);
const char* to_string(Variant variant);
const char* to_string(Backend backend);
std::optional<Variant> parse_variant(std::string_view name);  // a row's name or "best"
std::optional<Backend> parse_backend(std::string_view name);  // "auto", "hip", "emu"

}  // namespace dppgemm
