// `dppgemm-emu run` end to end: buffers from files, dumps compared bitwise
// with host references, the counters JSON, faults (exit 1, naming the PC
// and the instruction), the watchdog, and usage errors (exit 2).
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "cli_runner.hpp"
#include "dppgemm/code_objects.h"
#include "dppgemm/dppgemm.hpp"
#include "dppgemm/reference.hpp"
#include "emu/tools/commands.hpp"
#include "emu/tools/launch.hpp"
#include "sgemm_launch.hpp"
#include "toolchain.hpp"

namespace {

using Result = loader_test::CliResult;
using dppgemm::test_support::random_matrix;
using loader_test::cli;
using loader_test::contains;

std::string path_in_work_dir(const std::string& name) { return loader_test::work_dir() + "/" + name; }

void write_floats(const std::string& path, const std::vector<float>& values) {
    std::vector<std::uint8_t> bytes(4 * values.size());
    std::memcpy(bytes.data(), values.data(), bytes.size());
    loader_test::write_bytes(path, bytes);
}

std::vector<float> read_floats(const std::string& path) {
    const std::vector<std::uint8_t> bytes = loader_test::read_bytes(path);
    std::vector<float> values(bytes.size() / 4);
    std::memcpy(values.data(), bytes.data(), 4 * values.size());
    return values;
}

nlohmann::json read_json(const std::string& path) {
    std::ifstream file(path);
    return nlohmann::json::parse(file);
}

std::size_t bitwise_mismatches(const std::vector<float>& expected, const std::vector<float>& actual) {
    if (expected.size() != actual.size()) return std::max(expected.size(), actual.size());
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (std::memcmp(&expected[i], &actual[i], 4) != 0) ++mismatches;
    return mismatches;
}

// Two kernels with one buffer argument `out`: `oob` stores 1 MiB past it in
// every workgroup but the first, `spin` branches to itself forever.
const char* const faulting_code = R"(
	.text
	.globl oob
	.p2align 8
	.type oob,@function
oob:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc1 .Loob_done
	v_mov_b32 v1, 0x100000
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v0, s[4:5]
.Loob_done:
	s_endpgm
.Loob_end:
	.size oob, .Loob_end-oob

	.globl spin
	.p2align 8
	.type spin,@function
spin:
.Lspin:
	s_branch .Lspin
.Lspin_end:
	.size spin, .Lspin_end-spin

	.rodata
)";

// The descriptor and the metadata entry of a test kernel with one buffer argument `out`.
std::string descriptor(const std::string& name) {
    return "\t.p2align 6\n\t.amdhsa_kernel " + name +
           "\n\t\t.amdhsa_kernarg_size 8\n\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
           "\t\t.amdhsa_system_sgpr_workgroup_id_x 1\n\t\t.amdhsa_next_free_vgpr 2\n"
           "\t\t.amdhsa_next_free_sgpr 8\n\t.end_amdhsa_kernel\n";
}
std::string metadata_entry(const std::string& name) {
    return "  - .name: " + name + "\n    .symbol: " + name +
           ".kd\n    .kernarg_segment_size: 8\n    .kernarg_segment_align: 8\n"
           "    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n"
           "    .sgpr_count: 8\n    .vgpr_count: 2\n    .max_flat_workgroup_size: 256\n    .args:\n"
           "      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }\n";
}

const std::string& faulting_kernels() {
    static const std::string path =
        loader_test::assemble("tools_faulting",
                              std::string(faulting_code) + descriptor("oob") + descriptor("spin") +
                                  "\t.amdgpu_metadata\n---\namdhsa.version: [ 1, 1 ]\namdhsa.kernels:\n" +
                                  metadata_entry("oob") + metadata_entry("spin") + "...\n\t.end_amdgpu_metadata\n",
                              "gfx906", 4);
    return path;
}

}  // namespace

TEST_CASE("run: dppgemm SGEMM with buffers from files, C dumped bitwise equal to the reference", "[run][sgemm]") {
    const std::string co = dppgemm::test_support::code_object_dir() + "/gfx906/dppgemm_sgemm_dpp0_NN.co";
    // Edges in M and N, K not a multiple of the unroll 8, padded leading dimensions.
    const int m = 200, n = 130, k = 21, lda = 203, ldb = 22, ldc = 201;
    const float alpha = 1.5f, beta = -0.25f;
    std::mt19937 rng(17);
    const std::vector<float> a = random_matrix(std::size_t(lda) * k, rng), b = random_matrix(std::size_t(ldb) * n, rng),
                             c0 = random_matrix(std::size_t(ldc) * n, rng);
    write_floats(path_in_work_dir("sgemm_a.bin"), a);
    write_floats(path_in_work_dir("sgemm_b.bin"), b);
    write_floats(path_in_work_dir("sgemm_c.bin"), c0);
    const Result r = cli({"run",       co,
                          "--kernel",  "dppgemm_sgemm_dpp0_NN",
                          "--grid",    "2,2",
                          "--block",   "256",
                          "--buffer",  "a=@" + path_in_work_dir("sgemm_a.bin"),
                          "--buffer",  "b=@" + path_in_work_dir("sgemm_b.bin"),
                          "--buffer",  "c=@" + path_in_work_dir("sgemm_c.bin"),
                          "--arg",     "size_m=200",
                          "--arg",     "size_n=130",
                          "--arg",     "size_k=21",
                          "--arg",     "lda=203",
                          "--arg",     "ldb=22",
                          "--arg",     "ldc=201",
                          "--arg",     "alpha=1.5",
                          "--arg",     "beta=-0.25",
                          "--threads", "2",
                          "--dump",    "c=" + path_in_work_dir("sgemm_c_after.bin"),
                          "--json",    path_in_work_dir("sgemm.json")});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(contains(r.out, "kernel dppgemm_sgemm_dpp0_NN: grid 2,2,1 block 256,1,1\n"));
    CHECK(contains(r.out, "workgroups: 4 of 4 run, 16 waves\n"));
    CHECK(contains(r.out, "\nresult: ok\n"));

    std::vector<float> expected = c0;
    dppgemm::reference_sgemm(dppgemm::MacKind::mac_f32, 'N', 'N', m, n, k, alpha, a.data(), lda, b.data(), ldb, beta,
                             expected.data(), ldc);
    CHECK(bitwise_mismatches(expected, read_floats(path_in_work_dir("sgemm_c_after.bin"))) == 0);

    const nlohmann::json json = read_json(path_in_work_dir("sgemm.json"));
    CHECK(json["kernel"] == "dppgemm_sgemm_dpp0_NN");
    CHECK(json["grid"] == nlohmann::json::array({2, 2, 1}));
    CHECK(json["block"] == nlohmann::json::array({256, 1, 1}));
    CHECK(json["fault"].is_null());
    const nlohmann::json& counters = json["counters"];
    // 4 workgroups x ceil(21 / 8) = 3 steps of 128x128x8 at 8192 LDS read requests each.
    CHECK(counters["lds_read_requests"] == 8192 * 12);
    CHECK(counters["lds_bank_conflict_cycles"] == 0);
    // A lane owns 8x8 C values: 64 v_mac per k, 4 waves x 8 k = 2048 per step and
    // workgroup; then 64 v_mac per wave for beta * C.
    CHECK(counters["valu_multiply_add"] == 2048 * 12 + 64 * 16);
    CHECK(counters["workgroups"] == 4);
    CHECK(counters["waves"] == 16);
    CHECK(counters["valu_dpp"] == 0);
    CHECK(counters["vmem_atomic"] == 0);
    // Each instruction once in "wave_instructions": the sum of the instruction classes.
    std::uint64_t classes = 0;
    for (const dppgemm::CounterInfo& info : dppgemm::counter_table)
        if (info.instruction_class) classes += counters[info.name].get<std::uint64_t>();
    CHECK(counters["wave_instructions"] == classes);
    CHECK(counters["valu"] >= counters["valu_multiply_add"]);
    CHECK(counters.size() == std::size(dppgemm::counter_table) + 1);
}

TEST_CASE("run: a hipcc kernel takes its arguments by position", "[run][hip]") {
    std::ifstream file(dppgemm::test_support::hip_source("kernels.hip"));
    std::stringstream source;
    source << file.rdbuf();
    const std::string co = loader_test::hipcc("tools_hip", source.str(), 4);
    const int m = 37, n = 21, k = 13;
    std::mt19937 rng(3);
    const std::vector<float> a = random_matrix(std::size_t(m) * k, rng), b = random_matrix(std::size_t(k) * n, rng);
    write_floats(path_in_work_dir("hip_a.bin"), a);
    write_floats(path_in_work_dir("hip_b.bin"), b);
    const Result r = cli({"run",      co,
                          "--kernel", "naive_sgemm",
                          "--grid",   "3,3",
                          "--block",  "16,8",
                          "--buffer", "0=@" + path_in_work_dir("hip_a.bin"),
                          "--buffer", "1=@" + path_in_work_dir("hip_b.bin"),
                          "--buffer", "2=" + std::to_string(4 * m * n),
                          "--arg",    "3=37",
                          "--arg",    "4=21",
                          "--arg",    "5=13",
                          "--dump",   "2=" + path_in_work_dir("hip_c.bin")});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(contains(r.out, "workgroups: 9 of 9 run, 18 waves\n"));
    // hipcc contracts acc += a * b into v_fmac_f32.
    std::vector<float> expected(std::size_t(m) * n);
    for (int col = 0; col < n; ++col)
        for (int row = 0; row < m; ++row) {
            float acc = 0.0f;
            for (int i = 0; i < k; ++i) acc = std::fma(a[row + i * m], b[i + col * k], acc);
            expected[row + col * m] = acc;
        }
    CHECK(bitwise_mismatches(expected, read_floats(path_in_work_dir("hip_c.bin"))) == 0);
}

TEST_CASE("run: a faulting kernel exits 1 naming workgroup, wave, pc and instruction", "[run][fault]") {
    const std::string json_path = path_in_work_dir("fault.json");
    const Result r = cli({"run", faulting_kernels(), "--kernel", "oob", "--grid", "3", "--block", "64", "--buffer",
                          "out=64", "--json", json_path, "--threads", "2"});
    CHECK(r.code == 1);
    // The buffer is the first allocation (2^47); the store is 1 MiB past it.
    // pc: the store's address in the code object, as llvm-objdump -d prints it
    // (the kernel's code starts at 0x1600, the store is its 8th instruction).
    const std::string message =
        "kernel 'oob': workgroup (1,0,0) wave 0 pc 0x161c: global_store_dword v1, v0, s[4:5]: memory access outside "
        "any allocation at 0x800000100000";
    CHECK(r.err == "dppgemm-emu run: " + message + "\n");
    CHECK(contains(r.out, "workgroups: "));
    CHECK(contains(r.out, "\nresult: fault: " + message + "\n"));

    const nlohmann::json fault = read_json(json_path)["fault"];
    CHECK(fault["pc"] == 0x161c);
    CHECK(fault["instruction"] == "global_store_dword v1, v0, s[4:5]");
    CHECK(fault["workgroup"] == nlohmann::json::array({1, 0, 0}));
    CHECK(fault["wave"] == 0);
    CHECK(fault["address"] == 0x800000100000ull);
    CHECK(fault["message"] == message);
}

TEST_CASE("run: the watchdog stops an endless loop", "[run][fault]") {
    const Result r = cli({"run", faulting_kernels(), "--kernel", "spin", "--grid", "1", "--block", "64", "--buffer",
                          "out=4", "--watchdog", "1000"});
    CHECK(r.code == 1);
    CHECK(r.err ==
          "dppgemm-emu run: kernel 'spin': workgroup (0,0,0) wave 0 pc 0x1700: s_branch 65535: watchdog: more "
          "than 1000 instructions in one wave (endless loop?)\n");
}

TEST_CASE("run: the executable's exit codes", "[run]") {
    const std::string base = std::string(DPPGEMM_EMU_PATH) + " run " + faulting_kernels() + " --grid 1 --block 64 ";
    auto exit_code = [](const std::string& command) {
        return dppgemm::test_support::exit_code(command + " > /dev/null 2>&1");
    };
    CHECK(exit_code(base + "--kernel oob --buffer out=64 --no-check") == 0);
    CHECK(exit_code(base + "--kernel spin --buffer out=64 --watchdog 10") == 1);
    CHECK(exit_code(base + "--kernel oob") == 2);
}

TEST_CASE("run: usage errors exit 2 naming the option", "[run][usage]") {
    const std::vector<std::string> base = {"run", faulting_kernels(), "--kernel", "oob", "--grid",
                                           "1",   "--block",          "64"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return cli(args);
    };
    Result r = with({"--buffer", "out=64", "--watchdog", "many"});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "--watchdog"));
    r = with({"--buffer", "out=@" + loader_test::work_dir()});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu run: --buffer out: '" + loader_test::work_dir() + "' is not a regular file\n");
    r = with({"--buffer", "out=64", "--dump", "out=/nonexistent/dir/out.bin"});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu run: --dump out: cannot write '/nonexistent/dir/out.bin': No such file or directory\n");
    r = with({"--buffer", "out=64", "--json", "/nonexistent/dir/out.json"});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu run: --json: cannot write '/nonexistent/dir/out.json': No such file or directory\n");
}

// ---- failure behaviour (docs/reliability.md, "dppgemm-emu") ----

namespace {

// The code object with its last PT_LOAD segment's p_memsz set to `memsz`.
std::string with_last_load_memsz(const std::string& source, std::uint64_t memsz, const std::string& name) {
    std::vector<std::uint8_t> bytes = loader_test::read_bytes(source);
    const auto get16 = [&](std::size_t at) { return std::uint16_t(bytes[at] | bytes[at + 1] << 8); };
    std::uint64_t phoff = 0;
    std::memcpy(&phoff, bytes.data() + 32, 8);
    std::size_t last = 0;
    for (unsigned i = 0; i < get16(56); ++i) {
        const std::size_t at = phoff + std::size_t(i) * get16(54);
        if (bytes[at] == 1 && bytes[at + 1] == 0 && bytes[at + 2] == 0 && bytes[at + 3] == 0) last = at;  // PT_LOAD
    }
    REQUIRE(last != 0);
    std::memcpy(bytes.data() + last + 40, &memsz, 8);  // Elf64_Phdr::p_memsz
    const std::string path = path_in_work_dir(name);
    loader_test::write_bytes(path, bytes);
    return path;
}

}  // namespace

TEST_CASE("run: a code object whose segments end past 256 MiB is refused by every command, exit 2", "[run][usage]") {
    const std::string co = with_last_load_memsz(faulting_kernels(), 512u << 20, "big_segment.co");
    const std::string why = "ends past the emulator's 256 MiB code object image\n";
    for (const std::string command : {"info", "disasm"}) {
        const Result r = cli({command, co});
        CHECK(r.code == 2);
        CHECK(contains(r.err, "dppgemm-emu " + command + ": " + co + ": PT_LOAD program header "));
        CHECK(contains(r.err, why));
    }
    const Result r = cli({"run", co, "--kernel", "oob", "--grid", "1", "--block", "64", "--buffer", "out=4"});
    CHECK(r.code == 2);
    CHECK(contains(r.err, why));
    CHECK(r.out.empty());
}

TEST_CASE("run: --watchdog takes 0..2^48, the default stops an endless loop within seconds", "[run][usage]") {
    const std::vector<std::string> base = {"run", faulting_kernels(), "--kernel", "spin",     "--grid",
                                           "1",   "--block",          "64",       "--buffer", "out=4"};
    for (const std::string value : {"-1", "18446744073709551616", "281474976710657", "1e9", ""}) {
        std::vector<std::string> args = base;
        args.insert(args.end(), {"--watchdog", value});
        const Result r = cli(args);
        CAPTURE(value);
        CHECK(r.code == 2);
        CHECK(r.err ==
              "dppgemm-emu: --watchdog '" + value + "': expected an instruction count in 0..2^48 (0: no watchdog)\n");
    }
    CHECK(dppgemm::emu::tools::RunOptions{}.watchdog == std::uint64_t(1) << 28);
    const Result r = cli(base);  // the default: 2^28 instructions
    CHECK(r.code == 1);
    CHECK(contains(r.err, "watchdog: more than 268435456 instructions in one wave (endless loop?)\n"));
}

TEST_CASE("run: --dump and --json paths are checked before the run", "[run][usage]") {
    const std::string dump = path_in_work_dir("written_only_after_a_run.bin");
    std::remove(dump.c_str());
    const Result r = cli({"run", faulting_kernels(), "--kernel", "oob", "--grid", "1", "--block", "64", "--buffer",
                          "out=64", "--dump", "out=" + dump, "--json", "/nonexistent/dir/counters.json"});
    CHECK(r.code == 2);
    CHECK(r.err ==
          "dppgemm-emu run: --json: cannot write '/nonexistent/dir/counters.json': No such file or directory\n");
    CHECK(r.out.empty());
    CHECK_FALSE(std::ifstream(dump).good());  // nothing ran, so nothing was dumped
    const Result directory = cli({"run", faulting_kernels(), "--kernel", "oob", "--grid", "1", "--block", "64",
                                  "--buffer", "out=64", "--dump", "out=" + loader_test::work_dir()});
    CHECK(directory.code == 2);
    CHECK(directory.err == "dppgemm-emu run: --dump out: '" + loader_test::work_dir() + "' is a directory\n");
}

TEST_CASE("run: FIFOs, pipes and devices are read with a cap, never waited on", "[run][usage]") {
    const std::string fifo = path_in_work_dir("no_writer.fifo");
    std::remove(fifo.c_str());
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    Result r = cli({"info", fifo});  // a FIFO nobody writes reads as empty
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu info: " + fifo + ": truncated: 0 bytes, shorter than the 64-byte ELF header\n");
    r = cli(
        {"run", faulting_kernels(), "--kernel", "oob", "--grid", "1", "--block", "64", "--buffer", "out=@/dev/zero"});
    CHECK(r.code == 2);
    CHECK(r.err ==
          "dppgemm-emu run: --buffer out: '/dev/zero': more than the limit of 256 MiB (not a regular file, "
          "read until the limit)\n");
    // A pipe (here the shell's) as the code object: read whole, not sought.
    const std::string emu = DPPGEMM_EMU_PATH;
    CHECK(dppgemm::test_support::exit_code("cat " + faulting_kernels() + " | " + emu +
                                           " info /dev/stdin > /dev/null") == 0);
    std::remove(fifo.c_str());
}

TEST_CASE("run: --buffer sizes are checked against the machine's memory, and cost only what is touched",
          "[run][usage]") {
    Result r = cli({"run", faulting_kernels(), "--kernel", "oob", "--grid", "1", "--block", "64", "--buffer",
                    "out=1125899906842624"});  // 1 PiB
    CHECK(r.code == 2);
    CHECK(contains(r.err, "dppgemm-emu run: --buffer out=1125899906842624: 1.0 PiB, more than the "));
    CHECK(contains(r.err, "the buffers may take (the machine's available memory)\n"));
    // 512 MiB the kernel never touches: resident memory stays far below it.
    const std::string emu = DPPGEMM_EMU_PATH;
    CHECK(dppgemm::test_support::exit_code(
              emu + " run " + faulting_kernels() +
              " --kernel oob --grid 1 --block 64 --no-check --buffer out=536870912 > /dev/null") == 0);
    struct rusage usage {};
    REQUIRE(getrusage(RUSAGE_CHILDREN, &usage) == 0);
    CHECK(usage.ru_maxrss < 128 * 1024);  // KiB
}

TEST_CASE("run: float arguments out of range are named as such", "[cli]") {
    using dppgemm::emu::tools::encode_by_value;
    using dppgemm::emu::tools::UsageError;
    CHECK_THROWS_WITH(encode_by_value("1e39", 4, "--arg x"),
                      "--arg x: '1e39' is out of range for a 4-byte float (largest finite: 3.40282e+38)");
    CHECK_THROWS_WITH(encode_by_value("-1e400", 8, "--arg x"),
                      "--arg x: '-1e400' is out of range for a 8-byte float (largest finite: 1.79769e+308)");
    CHECK_THROWS_WITH(encode_by_value("1e3x", 4, "--arg x"), "--arg x: '1e3x' is not a number");
}

// A nonzero value that rounds to 0 in the argument's type would run as 0
// (alpha = 1e-50 takes SGEMM's alpha == 0 path): refused, naming it.
TEST_CASE("run: nonzero float arguments too small for their type are refused, not run as 0", "[cli]") {
    using dppgemm::emu::tools::encode_by_value;
    CHECK_THROWS_WITH(encode_by_value("-1e-50", 4, "--arg alpha"),
                      "--arg alpha: '-1e-50' is too small for a 4-byte float: it would be 0 (smallest nonzero: "
                      "1.4013e-45)");
    CHECK_THROWS_WITH(encode_by_value("1e-400", 8, "--arg x"),
                      "--arg x: '1e-400' is too small for a 8-byte float: it would be 0 (smallest nonzero: "
                      "4.94066e-324)");
    const auto float_bits = [](const std::vector<std::uint8_t>& bytes) {
        float value = 0;
        std::memcpy(&value, bytes.data(), 4);
        return value;
    };
    CHECK(float_bits(encode_by_value("1e-45", 4, "--arg x")) == 0x1p-149f);  // the smallest subnormal: kept
    CHECK(float_bits(encode_by_value("0.0", 4, "--arg x")) == 0.0f);
    CHECK(float_bits(encode_by_value("-0.0", 4, "--arg x")) == 0.0f);
}

TEST_CASE("dppgemm-emu: an unknown command, an empty --arch and a program exec cannot start are named, exit 2",
          "[usage]") {
    Result r = cli({"bogus", "x.co"});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu: unknown command 'bogus' (expected info, disasm, run or exec; see --help)\n");
    const std::string co = faulting_kernels();
    r = cli({"info", co, "--arch", ""});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu info: --arch '': expected a target name such as gfx906\n");
    r = cli({"run", co, "--kernel", "", "--grid", "1", "--block", "64"});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "--kernel '': no such kernel in"));
    // exec: a program that cannot be started is a usage error with no
    // summary line; one that runs and exits 127 keeps its status.
    const std::string exec = std::string(DPPGEMM_EMU_PATH) + " exec -- ";
    const std::string log = path_in_work_dir("exec_missing.txt");
    CHECK(dppgemm::test_support::exit_code(exec + "/nonexistent/program 2> " + log) == 2);
    const std::vector<std::uint8_t> said = loader_test::read_bytes(log);
    CHECK(std::string(said.begin(), said.end()) ==
          "dppgemm-emu exec: cannot run '/nonexistent/program': No such file or directory\n");
    CHECK(dppgemm::test_support::exit_code(exec + "sh -c 'exit 127' 2> /dev/null") == 127);
}

// The tools open bundles themselves (the code object for --arch); one that holds
// no device code object says so. hipModuleLoad's hint to unbundle is tested in
// tests/host.
TEST_CASE("run: an offload bundle without a device code object is named as one", "[usage]") {
    std::vector<std::uint8_t> bundle(128, 0);
    const std::string magic = "__CLANG_OFFLOAD_BUNDLE__";
    std::memcpy(bundle.data(), magic.data(), magic.size());
    const std::string path = path_in_work_dir("bundle.hsaco");
    loader_test::write_bytes(path, bundle);
    const Result r = cli({"info", path});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu info: '" + path + "' has no code object for any AMDGPU target (it has: none)\n");
}

TEST_CASE("run: the project's own kernels define sized STT_FUNC symbols (no warning about them)", "[usage]") {
    REQUIRE(dppgemm_code_object_count() > 0);  // the count: tests/kernels/test_embedded_table.cpp
    for (std::size_t i = 0; i < dppgemm_code_object_count(); ++i) {
        const dppgemm_code_object* co = dppgemm_code_object_at(i);
        const dppgemm::emu::CodeObject object = dppgemm::emu::load_code_object(co->data, co->size, co->kernel_name);
        CAPTURE(co->target, co->kernel_name);
        for (const std::string& warning : object.warnings) CHECK(warning.find("STT_FUNC") == std::string::npos);
        REQUIRE(object.find_kernel(co->kernel_name));
        CHECK(object.find_kernel(co->kernel_name)->code_size_from_symbol);
    }
}

TEST_CASE("run: --model adds the modeled time, --model-only runs only the traced workgroups", "[run][model]") {
    const std::string co = dppgemm::test_support::code_object_dir() + "/gfx906/dppgemm_sgemm_dpp0_NN.co";
    const std::string bytes = std::to_string(384 * 384 * 4);
    const std::vector<std::string> base = {"run",      co,           "--kernel",  "dppgemm_sgemm_dpp0_NN",
                                           "--grid",   "3,3",        "--block",   "256",
                                           "--buffer", "a=" + bytes, "--buffer",  "b=" + bytes,
                                           "--buffer", "c=" + bytes, "--arg",     "size_m=384",
                                           "--arg",    "size_n=384", "--arg",     "size_k=64",
                                           "--arg",    "lda=384",    "--arg",     "ldb=64",
                                           "--arg",    "ldc=384",    "--arg",     "alpha=1",
                                           "--arg",    "beta=0",     "--threads", "2"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return cli(args);
    };
    const Result full = with({"--model"});
    INFO(full.err);
    REQUIRE(full.code == 0);
    CHECK(contains(full.out, "workgroups: 9 of 9 run, 36 waves\n"));
    CHECK(contains(full.out, "modeled on gfx906 (Instinct MI50, 60 CUs at 1725 MHz):\nmodeled time: "));
    CHECK(contains(full.out, "(busiest CU: 1 workgroups, 2 at once, limited by vgprs)\n"));
    CHECK(contains(full.out, "modeled breakdown (% of time): valu "));
    const Result only = with({"--model-only"});
    REQUIRE(only.code == 0);
    CHECK(!contains(only.out, "workgroups: "));  // the full launch does not run
    const std::string modeled = full.out.substr(full.out.find("modeled on"));
    CHECK(only.out == modeled);  // the same traces, the same figures
    const Result slower = with({"--model-only", "--model-params", "lds_latency=500"});
    REQUIRE(slower.code == 0);
    CHECK(slower.out != only.out);
    const Result unknown = with({"--model-only", "--model-params", "lds_speed=1"});
    CHECK(unknown.code == 2);
    CHECK(unknown.err == "dppgemm-emu run: --model-params: unknown model parameter 'lds_speed'\n");
}
