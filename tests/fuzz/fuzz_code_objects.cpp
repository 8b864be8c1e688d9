// A mutation fuzzer over everything a code object reaches:
// dppgemm-emu's info, disasm and run commands (run_cli, the code of the
// executable minus its one-line main) and libdppgemm-hipemu's module loader
// (hipModuleLoad, hipModuleGetFunction). Seeds: the project's kernel code objects
// (the embedded table) and hipcc output (files given with --seed-file).
//
// Every input must end in exit code 0, 1 or 2 for each command and in a
// documented hipError_t; an exception, a signal, a sanitizer report (the
// sanitized build) or an input taking longer than --hang-seconds fails the
// run, naming the input and saving it (--failures DIR).
//
//   fuzz_code_objects [--iterations N] [--seconds S] [--seed X] [--hang-seconds S]
//                     [--work DIR] [--failures DIR] [--seed-file FILE]...
//
// Deterministic for a given --seed and seed set; stops after N inputs or S
// seconds, whichever comes first. docs/reliability.md has the budgets and the
// long runs.
#include <hip/hip_runtime_api.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dppgemm/code_objects.h"
#include "emu/loader/code_object.hpp"
#include "emu/tools/cli.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

struct Settings {
    std::uint64_t iterations = 1000;
    double seconds = 30;
    std::uint64_t seed = 17;
    unsigned hang_seconds = 120;
    std::string work = ".";
    std::string failures;
    std::vector<std::string> seed_files;
};

Bytes read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        std::fprintf(stderr, "fuzz_code_objects: cannot read seed '%s'\n", path.c_str());
        std::exit(2);
    }
    return Bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const Bytes& bytes) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!file.flush()) {
        std::fprintf(stderr, "fuzz_code_objects: cannot write '%s'\n", path.c_str());
        std::exit(2);
    }
}

template <class T>
T get(const Bytes& bytes, std::size_t at) {
    T value{};
    if (at + sizeof value <= bytes.size()) std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : random_(seed) {}

    std::size_t below(std::size_t n) {
        return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
    }

    // Headers are where most decisions are taken: aim there half the time.
    std::pair<std::size_t, std::size_t> region(const Bytes& b) {
        switch (below(6)) {
        case 0: return {0, 64};
        case 1: return {get<std::uint64_t>(b, 32), std::size_t(get<std::uint16_t>(b, 56)) * 56};  // program headers
        case 2: return {get<std::uint64_t>(b, 40), std::size_t(get<std::uint16_t>(b, 60)) * 64};  // section headers
        default: return {0, b.size()};
        }
    }

    Bytes mutate(const Bytes& original, const std::vector<Bytes>& corpus) {
        Bytes bytes = original;
        const std::size_t rounds = 1 + below(2);
        for (std::size_t round = 0; round < rounds && !bytes.empty(); ++round) {
            auto [begin, length] = region(bytes);
            if (begin >= bytes.size()) begin = 0;
            length = std::min(length == 0 ? bytes.size() : length, bytes.size() - begin);
            const std::size_t edits = 1 + below(8);
            switch (below(7)) {
            case 0: bytes.resize(below(bytes.size())); break;  // truncate
            case 1:
                for (std::size_t i = 0; i < edits; ++i) bytes[begin + below(length)] ^= std::uint8_t(1u << below(8));
                break;
            case 2: {
                static const std::uint8_t values[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0x40, 0xfe, 0x10};
                for (std::size_t i = 0; i < edits; ++i) bytes[begin + below(length)] = values[below(sizeof values)];
                break;
            }
            case 3: {  // a 16-, 32- or 64-bit field at a boundary value
                const std::uint64_t values[] = {0,
                                                1,
                                                0xffff,
                                                0xffffffffu,
                                                0x80000000u,
                                                ~std::uint64_t(0),
                                                std::uint64_t(1) << 63,
                                                std::uint64_t(1) << 28,
                                                std::uint64_t(512) << 20,
                                                bytes.size(),
                                                bytes.size() + 1,
                                                64,
                                                4096};
                const std::size_t at = begin + below(length);
                const std::uint64_t value = values[below(sizeof values / sizeof values[0])];
                const std::size_t width = std::size_t(2) << below(3);
                for (std::size_t i = 0; i < width && at + i < bytes.size(); ++i)
                    bytes[at + i] = std::uint8_t(value >> (8 * i));
                break;
            }
            case 4: {  // copy a chunk of the input over another place
                const std::size_t from = below(bytes.size()), to = begin + below(length);
                const std::size_t count =
                    std::min<std::size_t>({below(64) + 1, bytes.size() - from, bytes.size() - to});
                std::memmove(bytes.data() + to, bytes.data() + from, count);
                break;
            }
            case 5: {  // splice: a chunk of another seed at the same place
                const Bytes& other = corpus[below(corpus.size())];
                const std::size_t at = begin + below(length);
                const std::size_t count = std::min<std::size_t>(
                    {below(256) + 1, other.size() > at ? other.size() - at : 0, bytes.size() - at});
                if (count) std::memcpy(bytes.data() + at, other.data() + at, count);
                break;
            }
            default: {  // random words in the code (the decoder and executor's input)
                for (std::size_t i = 0; i < edits; ++i) {
                    const std::size_t at = (begin + below(length)) & ~std::size_t(3);
                    const std::uint32_t word = std::uint32_t(random_());
                    for (std::size_t k = 0; k < 4 && at + k < bytes.size(); ++k)
                        bytes[at + k] = std::uint8_t(word >> (8 * k));
                }
                break;
            }
            }
        }
        return bytes;
    }

private:
    std::mt19937_64 random_;
};

// What a run command line for `path` gives every explicit argument: zeroed
// 4 KiB buffers and small integers, so that the kernel runs (with a low
// watchdog) instead of stopping at a usage error.
std::vector<std::string> run_arguments(const std::string& path, Mutator& mutator) {
    std::vector<std::string> args = {"run", path, "--grid", "1", "--watchdog", "20000", "--threads", "1"};
    try {
        const dppgemm::emu::CodeObject co = dppgemm::emu::load_code_object(path);
        if (co.kernels.empty()) return {};
        const dppgemm::emu::Kernel& kernel = co.kernels[mutator.below(co.kernels.size())];
        args.insert(args.end(), {"--kernel", kernel.name, "--block",
                                 std::to_string(std::max<std::uint32_t>(
                                     1, std::min<std::uint32_t>(64, kernel.metadata.max_flat_workgroup_size)))});
        for (std::size_t i = 0; i < kernel.metadata.args.size(); ++i) {
            const dppgemm::emu::KernelArgument& arg = kernel.metadata.args[i];
            const std::string name = std::to_string(i);
            if (arg.value_kind == dppgemm::emu::ValueKind::global_buffer)
                args.insert(args.end(), {"--buffer", name + "=4096"});
            else if (arg.value_kind == dppgemm::emu::ValueKind::by_value)
                args.insert(args.end(), {"--arg", name + "=" + std::to_string(1 + mutator.below(3))});
        }
        if (mutator.below(4) == 0) args.push_back("--no-check");
    } catch (const dppgemm::emu::CodeObjectError&) {
        return {};  // info and disasm have said why; nothing to run
    }
    return args;
}

// Input being run, for the hang and signal reports.
volatile std::sig_atomic_t current_input = -1;
char current_path[4096];

extern "C" void on_hang(int) {
    char line[256];
    const int n = std::snprintf(line, sizeof line, "\nfuzz_code_objects: input %d (%s) still running: a hang\n",
                                int(current_input), current_path);
    if (n > 0) (void)!write(2, line, std::size_t(n));
    _exit(3);
}

struct Tally {
    std::map<std::string, std::uint64_t> counts;
    void add(const std::string& what) { ++counts[what]; }
};

// dppgemm-emu's exit codes: 0 success, 1 kernel fault, 2 usage error.
bool run_cli(const std::vector<std::string>& args, Tally& tally) {
    std::vector<const char*> argv = {"dppgemm-emu"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = dppgemm::emu::tools::run_cli(int(argv.size()), argv.data(), out, err);
    tally.add(args[0] + " exit " + std::to_string(code));
    if (code < 0 || code > 2) {
        std::fprintf(stderr, "fuzz_code_objects: dppgemm-emu %s exited %d:\n%s", args[0].c_str(), code,
                     err.str().c_str());
        return false;
    }
    return true;
}

bool documented_hip_error(hipError_t e) {
    switch (e) {
    case hipSuccess:
    case hipErrorInvalidImage:
    case hipErrorNoBinaryForGpu:
    case hipErrorFileNotFound:
    case hipErrorNotFound:
    case hipErrorOutOfMemory: return true;
    default: return false;
    }
}

bool load_on_hipemu(const std::string& path, Tally& tally) {
    hipModule_t module = nullptr;
    const hipError_t loaded = hipModuleLoad(&module, path.c_str());
    tally.add(std::string("hipModuleLoad ") + hipGetErrorName(loaded));
    if (!documented_hip_error(loaded)) {
        std::fprintf(stderr, "fuzz_code_objects: hipModuleLoad returned %s\n", hipGetErrorName(loaded));
        return false;
    }
    if (loaded != hipSuccess) return true;
    bool ok = true;
    try {
        const dppgemm::emu::CodeObject co = dppgemm::emu::load_code_object(path);
        for (const dppgemm::emu::Kernel& kernel : co.kernels) {
            hipFunction_t function = nullptr;
            const hipError_t got = hipModuleGetFunction(&function, module, kernel.name.c_str());
            tally.add(std::string("hipModuleGetFunction ") + hipGetErrorName(got));
            if (!documented_hip_error(got)) {
                std::fprintf(stderr, "fuzz_code_objects: hipModuleGetFunction returned %s\n", hipGetErrorName(got));
                ok = false;
            }
        }
    } catch (const dppgemm::emu::CodeObjectError&) {
    }
    (void)hipModuleUnload(module);
    return ok;
}

Settings parse(int argc, char** argv) {
    Settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "fuzz_code_objects: %s needs a value\n", flag.c_str());
            std::exit(2);
        }
        const std::string value = argv[++i];
        if (flag == "--iterations") s.iterations = std::stoull(value);
        else if (flag == "--seconds") s.seconds = std::stod(value);
        else if (flag == "--seed") s.seed = std::stoull(value);
        else if (flag == "--hang-seconds") s.hang_seconds = unsigned(std::stoul(value));
        else if (flag == "--work") s.work = value;
        else if (flag == "--failures") s.failures = value;
        else if (flag == "--seed-file") s.seed_files.push_back(value);
        else {
            std::fprintf(stderr, "fuzz_code_objects: unknown flag %s\n", flag.c_str());
            std::exit(2);
        }
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    const Settings settings = parse(argc, argv);
    std::vector<Bytes> corpus;
    for (std::size_t i = 0; i < dppgemm_code_object_count(); ++i) {
        const dppgemm_code_object* co = dppgemm_code_object_at(i);
        corpus.emplace_back(co->data, co->data + co->size);
    }
    for (const std::string& path : settings.seed_files) corpus.push_back(read_file(path));
    const std::size_t kernels = dppgemm_code_object_count();

    std::signal(SIGALRM, on_hang);
    Mutator mutator(settings.seed);
    Tally tally;
    const std::string input = settings.work + "/fuzz_input." + std::to_string(getpid()) + ".co";
    std::snprintf(current_path, sizeof current_path, "%s", input.c_str());
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t done = 0;
    int status = 0;
    for (; done < settings.iterations; ++done) {
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > settings.seconds) break;
        const Bytes bytes = mutator.mutate(corpus[mutator.below(corpus.size())], corpus);
        write_file(input, bytes);
        current_input = std::sig_atomic_t(done);
        alarm(settings.hang_seconds);
        bool ok = true;
        try {
            ok &= run_cli({"info", input}, tally);
            ok &= run_cli({"disasm", input}, tally);
            const std::vector<std::string> run = run_arguments(input, mutator);
            if (!run.empty()) ok &= run_cli(run, tally);
            ok &= load_on_hipemu(input, tally);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "fuzz_code_objects: an exception escaped: %s\n", e.what());
            ok = false;
        }
        alarm(0);
        if ((done + 1) % 1000 == 0) {
            std::printf("fuzz_code_objects: %llu inputs, %s so far\n", static_cast<unsigned long long>(done + 1),
                        status ? "FAILURES" : "no failure");
            std::fflush(stdout);
        }
        if (!ok) {
            status = 1;
            const std::string saved = (settings.failures.empty() ? settings.work : settings.failures) +
                                      "/fuzz_failure." + std::to_string(done) + ".co";
            write_file(saved, bytes);
            std::fprintf(stderr, "fuzz_code_objects: input %llu failed, saved as %s\n",
                         static_cast<unsigned long long>(done), saved.c_str());
        }
    }
    std::remove(input.c_str());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("fuzz_code_objects: %llu inputs from %zu seeds (%zu kernels, %zu hipcc) in %.0f s, seed %llu: %s\n",
                static_cast<unsigned long long>(done), corpus.size(), kernels, corpus.size() - kernels, seconds,
                static_cast<unsigned long long>(settings.seed), status ? "FAILURES" : "no failure");
    for (const auto& [what, count] : tally.counts)
        std::printf("  %-40s %llu\n", what.c_str(), static_cast<unsigned long long>(count));
    return status;
}
