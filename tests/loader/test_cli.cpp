// dppgemm-emu's command line: exit codes, messages naming the argument, the
// info summary, and the run-option checks against a kernel's metadata.
#include <catch2/catch.hpp>

#include <sstream>

#include "cli_runner.hpp"
#include "emu/loader/code_object.hpp"
#include "emu/tools/cli.hpp"
#include "emu/tools/launch.hpp"
#include "toolchain.hpp"

using namespace dppgemm::emu;
using namespace dppgemm::emu::tools;

namespace {

using Result = loader_test::CliResult;
using loader_test::cli;
using loader_test::contains;

const std::string& two_kernels() {
    static const std::string path =
        loader_test::assemble("cli_two_kernels", loader_test::two_kernels_source("gfx90a", 5), "gfx90a", 5);
    return path;
}

}  // namespace

TEST_CASE("cli: usage errors exit 2 and name the argument", "[cli]") {
    const std::string co = two_kernels();
    Result r = cli({});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "subcommand"));

    r = cli({"info", "/nonexistent.co"});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "CODE_OBJECT: File does not exist: /nonexistent.co"));

    r = cli({"run", co, "--kernel", "wide", "--block", "64"});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "--grid is required"));

    r = cli({"run", co, "--kernel", "wide", "--grid", "0,1", "--block", "64"});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu: --grid '0,1': dimension 0 ('0') is not an integer in 1..4294967295\n");

    r = cli({"run", co, "--kernel", "wide", "--grid", "1,1,1,1", "--block", "64"});
    CHECK(r.err == "dppgemm-emu: --grid '1,1,1,1': more than 3 dimensions\n");

    r = cli({"run", co, "--kernel", "wide", "--grid", "4", "--block", "64", "--arg", "scale"});
    CHECK(r.code == 2);
    CHECK(r.err == "dppgemm-emu: --arg 'scale': expected NAME=VALUE\n");

    r = cli({"run", co, "--kernel", "wide", "--grid", "4", "--block", "64", "--threads", "x"});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "--threads"));

    r = cli({"disasm", co, "--kernel"});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "--kernel"));

    r = cli({"info", "--help"});
    CHECK(r.code == 0);
    CHECK(contains(r.out, "CODE_OBJECT"));
    r = cli({"disasm", "--help"});
    CHECK(r.code == 0);
    CHECK(contains(r.out, "                         // 000000001500"));
}

TEST_CASE("cli: info prints targets, kernels, descriptors and metadata", "[cli]") {
    const Result r = cli({"info", two_kernels()});
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(contains(r.out, "target: gfx90a (xnack any, sramecc any)\n"));
    CHECK(contains(r.out, "code object version: 5 (metadata 1.2)\nkernels: 2\n"));
    CHECK(contains(r.out, "kernel wide\n  code: 0x1800, 20 bytes\n"));
    CHECK(contains(r.out,
                   "  VGPRs: 56 allocated (40 arch, 16 acc, accum_offset 40), metadata vgpr_count 37, "
                   "agpr_count 16\n"));
    CHECK(contains(r.out, "  workitem ids: x y z in v0 (packed, 10 bits each)\n"));
    CHECK(contains(r.out, "     2  offset  16  size  8  by_value  count\n"));
    CHECK(contains(r.out, "     6  offset  40  size  8  hidden_printf_buffer global\n"));

    const std::string bad = loader_test::work_dir() + "/bad.co";
    loader_test::write_bytes(bad, {0x7f, 'E', 'L', 'F'});
    const Result rejected = cli({"info", bad});
    CHECK(rejected.code == 2);
    CHECK(rejected.err == "dppgemm-emu info: " + bad + ": truncated: 4 bytes, shorter than the 64-byte ELF header\n");
}

TEST_CASE("cli: run checks its options against the metadata", "[cli]") {
    const std::string co = two_kernels();
    const std::vector<std::string> base = {"run", co, "--kernel", "wide", "--grid", "4", "--block", "64,2"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return cli(args);
    };
    // Every option is valid: the kernel (with a 64-byte private segment) runs.
    Result r = with({"--arg", "scale=1.5", "--arg", "2=-7", "--buffer", "out=4096"});
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(contains(r.out, "kernel wide: grid 4,1,1 block 64,2,1\n"));

    r = cli({"run", co, "--kernel", "absent", "--grid", "1", "--block", "1"});
    CHECK(r.err == "dppgemm-emu run: --kernel absent: no such kernel in " + co + " (kernels: wide, narrow)\n");
    r = with({"--arg", "scale=1.5", "--buffer", "out=4096"});
    CHECK(r.err == "dppgemm-emu run: argument 2 'count' (by_value, 8 bytes) has no value: add --arg count=VALUE\n");
    r = with({"--arg", "scale=1.5", "--arg", "count=1"});
    CHECK(
        r.err ==
        "dppgemm-emu run: argument 0 'out' (global_buffer, 8 bytes) has no buffer: add --buffer out=BYTES or =@FILE\n");
    r = with({"--arg", "out=1"});
    CHECK(r.err ==
          "dppgemm-emu run: --arg out: argument 0 'out' (global_buffer, 8 bytes) is not a by-value argument; use "
          "--buffer\n");
    r = with({"--arg", "3=1"});
    CHECK(r.err ==
          "dppgemm-emu run: --arg 3: argument 3 (hidden_global_offset_x, 8 bytes) is a hidden argument; the "
          "emulator fills it in\n");
    r = with({"--arg", "7=1"});
    CHECK(r.err == "dppgemm-emu run: --arg 7: kernel 'wide' has 7 arguments\n");
    r = with({"--arg", "scale=1.5", "--arg", "1=2.5"});
    CHECK(r.err == "dppgemm-emu run: --arg 1: argument 1 'scale' (by_value, 4 bytes) is given more than once\n");
    r = with({"--buffer", "out=@/nonexistent"});
    CHECK(r.err == "dppgemm-emu run: --buffer out: cannot open '/nonexistent': No such file or directory\n");
    r = with({"--dump", "out=x.bin", "--arg", "scale=1", "--arg", "count=1"});
    CHECK(r.err == "dppgemm-emu run: --dump out: argument 0 'out' (global_buffer, 8 bytes) has no --buffer\n");
    r = cli({"run", co, "--kernel", "wide", "--grid", "4", "--block", "1024"});
    CHECK(r.err == "dppgemm-emu run: --block: 1024 work-items per workgroup, kernel 'wide' allows at most 512\n");
    r = cli({"run", co, "--kernel", "wide", "--grid", "4294967295", "--block", "2"});
    CHECK(r.err == "dppgemm-emu run: --grid: dimension 0 has 8589934590 work-items in total, more than 2^32-1\n");
}

TEST_CASE("run options resolve into a launch plan", "[cli]") {
    const CodeObject co = load_code_object(two_kernels());
    RunOptions options;
    options.code_object = co.source;
    options.kernel = "wide";
    options.grid = parse_dims("8,2", "--grid");
    options.block = parse_dims("64,4,1", "--block");
    options.args = {{"scale", "-0.5"}, {"2", "0xfffffffffffffffe"}};
    const std::string init = loader_test::work_dir() + "/init.bin";
    loader_test::write_bytes(init, {1, 2, 3, 4, 5});
    options.buffers = {{"0", "@" + init}};
    options.dumps = {{"out", "after.bin"}};
    const LaunchPlan plan = resolve_launch(options, co);
    CHECK(plan.kernel == &co.kernel("wide"));
    CHECK(plan.grid == std::array<std::uint32_t, 3>{8, 2, 1});
    CHECK(plan.block == std::array<std::uint32_t, 3>{64, 4, 1});
    REQUIRE(plan.kernarg.size() == 48);
    // scale = -0.5f at 8 (0xbf000000), count at 16, everything else zero.
    const std::vector<std::uint8_t> expected = {0, 0, 0, 0, 0,    0,    0,    0,    0x00, 0x00, 0x00, 0xbf,
                                                0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    CHECK(std::vector<std::uint8_t>(plan.kernarg.begin(), plan.kernarg.begin() + 24) == expected);
    CHECK(std::all_of(plan.kernarg.begin() + 24, plan.kernarg.end(), [](std::uint8_t b) { return b == 0; }));
    REQUIRE(plan.buffers.size() == 1);
    CHECK(plan.buffers[0].arg_index == 0);
    CHECK(plan.buffers[0].initial == std::vector<std::uint8_t>{1, 2, 3, 4, 5});
    CHECK(plan.buffers[0].dump_file == std::optional<std::string>("after.bin"));
}

TEST_CASE("by-value argument encoding", "[cli]") {
    using Bytes = std::vector<std::uint8_t>;
    CHECK(encode_by_value("1.5", 4, "x") == Bytes{0x00, 0x00, 0xc0, 0x3f});
    CHECK(encode_by_value("2f", 4, "x") == Bytes{0x00, 0x00, 0x00, 0x40});
    CHECK(encode_by_value("-inf", 4, "x") == Bytes{0x00, 0x00, 0x80, 0xff});
    CHECK(encode_by_value("1e0", 8, "x") == Bytes{0, 0, 0, 0, 0, 0, 0xf0, 0x3f});
    CHECK(encode_by_value("-1", 4, "x") == Bytes{0xff, 0xff, 0xff, 0xff});
    CHECK(encode_by_value("4294967295", 4, "x") == Bytes{0xff, 0xff, 0xff, 0xff});
    CHECK(encode_by_value("-128", 1, "x") == Bytes{0x80});
    CHECK(encode_by_value("0x1234", 2, "x") == Bytes{0x34, 0x12});
    CHECK_THROWS_WITH(encode_by_value("256", 1, "--arg n"), "--arg n: '256' does not fit in 1 bytes");
    CHECK_THROWS_WITH(encode_by_value("-129", 1, "--arg n"), "--arg n: '-129' does not fit in 1 bytes");
    CHECK_THROWS_WITH(encode_by_value("1.5", 2, "--arg h"),
                      "--arg h: '1.5' is a floating-point value, but the argument has 2 bytes (4 or 8 needed)");
    CHECK_THROWS_WITH(encode_by_value("12abc", 4, "--arg n"), "--arg n: '12abc' is not a number");
    CHECK_THROWS_WITH(encode_by_value("1", 12, "--arg s"),
                      "--arg s: only 1, 2, 4 or 8-byte scalars can be given on the command line");
}

TEST_CASE("cli: disasm prints llvm-objdump's lines without the raw words", "[cli][disasm]") {
    // v_mov_b32 with an inline float, a hipcc kernel with branches (long
    // lines and addresses with hex letters), and code objects v4 and v5.
    const std::vector<std::pair<std::string, std::string>> objects = {
        {two_kernels(), "gfx90a"},
        {loader_test::assemble("cli_gfx906", loader_test::two_kernels_source("gfx906", 4), "gfx906", 4), "gfx906"},
        {loader_test::hipcc("cli_hip", loader_test::hip_source, 4), "gfx906"},
    };
    for (const auto& [path, mcpu] : objects) {
        const CodeObject co = load_code_object(path);
        // The oracle: llvm-objdump over each kernel's own bytes, ": WORDS"
        // cut from every instruction line.
        std::string expected;
        for (const Kernel& kernel : co.kernels) {
            if (!expected.empty()) expected += "\n";
            expected += kernel.name + ":\n";
            std::ostringstream command;
            command << dppgemm::test_support::llvm15().objdump << " -d --mcpu=" << mcpu << std::hex
                    << " --start-address=0x" << kernel.code_address << " --stop-address=0x"
                    << kernel.code_address + kernel.code.size() << " " << path;
            std::istringstream lines(loader_test::run(command.str()));
            std::size_t instructions = 0;
            for (std::string line; std::getline(lines, line);) {
                const std::size_t words = line.find(": ", line.rfind("// "));
                if (line.empty() || line[0] != '\t' || words == std::string::npos) continue;
                expected += line.substr(0, words) + "\n";
                ++instructions;
            }
            CHECK(instructions * 4 <= kernel.code.size());
            CHECK(instructions >= 2);
        }
        const Result r = cli({"disasm", path});
        INFO(path);
        CHECK(r.code == 0);
        CHECK(r.err.empty());
        CHECK(r.out == expected);
    }
    const Result one = cli({"disasm", two_kernels(), "--kernel", "narrow"});
    CHECK(one.out == "narrow:\n\ts_nop 0" + std::string(52, ' ') + "// 000000001900\n\ts_endpgm" +
                         std::string(51, ' ') + "// 000000001904\n");
    const Result absent = cli({"disasm", two_kernels(), "--kernel", "wider"});
    CHECK(absent.code == 2);
    CHECK(absent.err == "dppgemm-emu disasm: " + two_kernels() + ": no kernel named 'wider' (kernels: wide, narrow)\n");
}
