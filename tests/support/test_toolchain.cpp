#include "test_toolchain.hpp"

#include "emu/loader/target.hpp"

#include <errno.h>  // program_invocation_short_name
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace dppgemm::test_support {
namespace {

struct WorkDir {
    std::string path;
    WorkDir() {
        path = std::string(DPPGEMM_TEST_WORK_ROOT) + "/" + program_invocation_short_name + "." +
               std::to_string(::getpid());
        std::filesystem::remove_all(path);  // a previous process of the same pid
        std::filesystem::create_directories(path);
    }
    ~WorkDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

std::string write_source(const std::string& name, const std::string& source) {
    const std::string path = work_dir() + "/" + name;
    write_text(path, source);
    return path;
}

}  // namespace

const LlvmTools& llvm15() {
    static const LlvmTools tools{DPPGEMM_TEST_CLANG15, DPPGEMM_TEST_LLVM_MC15, DPPGEMM_TEST_OBJDUMP15,
                                 DPPGEMM_TEST_READELF15};
    return tools;
}

const LlvmTools& llvm19() {
    static const LlvmTools tools{DPPGEMM_TEST_CLANG19, DPPGEMM_TEST_LLVM_MC19, DPPGEMM_TEST_OBJDUMP19,
                                 DPPGEMM_TEST_READELF19};
    return tools;
}

// The LLVM the target table names for the processor (include/dppgemm/targets.def);
// "gfx90a:xnack+" is gfx90a. Unknown processors get LLVM 15.
const LlvmTools& llvm_for(const std::string& processor) {
    const auto target = dppgemm::emu::target_from_name(processor.substr(0, processor.find(':')));
    return target && dppgemm::emu::llvm_version(*target) >= 19 ? llvm19() : llvm15();
}

const std::string& lld() {
    static const std::string path = DPPGEMM_TEST_LLD15;
    return path;
}

const std::string& hipcc() {
    static const std::string path = DPPGEMM_TEST_HIPCC;
    return path;
}

const std::string& code_object_dir() {
    static const std::string path = DPPGEMM_TEST_CODE_OBJECT_DIR;
    return path;
}

std::string hip_source(const std::string& file) { return std::string(DPPGEMM_TEST_HIP_DIR) + "/" + file; }
std::string source_path(const std::string& relative) { return std::string(DPPGEMM_TEST_SOURCE_DIR) + "/" + relative; }

void skip_test(const std::string& why) {
    std::cout << "SKIPPED: " << why << std::endl;
    std::exit(DPPGEMM_TEST_SKIP_CODE);
}

CommandResult run_command(const std::string& command) {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe) throw std::runtime_error("cannot start: " + command);
    CommandResult result{0, {}};
    char buffer[65536];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) result.output.append(buffer, n);
    result.status = pclose(pipe.release());
    return result;
}

int exit_code(const std::string& command) {
    const int status = std::system(command.c_str());
    if (status == -1 || !WIFEXITED(status))
        throw std::runtime_error("did not exit (status " + std::to_string(status) + "): " + command);
    return WEXITSTATUS(status);
}

std::string run(const std::string& command) {
    CommandResult result = run_command(command + " 2>&1");
    if (result.status != 0)
        throw std::runtime_error("command failed (status " + std::to_string(result.status) + "): " + command + "\n" +
                                 result.output);
    return std::move(result.output);
}

std::vector<std::string> run_on_files(const std::string& command, const std::vector<std::string>& paths,
                                      std::string (*header)(const std::string& path)) {
    std::string full = command;
    for (const std::string& path : paths) full += " " + path;
    const CommandResult result = run_command(full);
    if (result.status != 0)
        throw std::runtime_error("command failed (status " + std::to_string(result.status) + "): " + full);
    // llvm-readelf prints no "File:" line for a single file.
    if (paths.size() == 1) return {result.output};
    std::vector<std::string> parts;
    std::istringstream lines(result.output);
    for (std::string line; std::getline(lines, line);) {
        if (parts.size() < paths.size() && line == header(paths[parts.size()])) parts.emplace_back();
        if (!parts.empty()) parts.back() += line + "\n";
    }
    if (parts.size() != paths.size())
        throw std::runtime_error("no output for " + paths[parts.size()] + " (its header \"" +
                                 header(paths[parts.size()]) + "\") from: " + full);
    return parts;
}

std::string objdump_header(const std::string& path) { return path + ":\tfile format elf64-amdgpu"; }
std::string readelf_header(const std::string& path) { return "File: " + path; }

const std::string& work_dir() {
    static const WorkDir dir;
    return dir.path;
}

std::string fresh_dir(const std::string& stem) {
    static std::atomic<unsigned> made{0};
    const std::string path = work_dir() + "/" + stem + "." + std::to_string(made++);
    std::filesystem::create_directories(path);
    return path;
}

std::vector<std::uint8_t> read_bytes(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot read " + path);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!file) throw std::runtime_error("cannot write " + path);
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream file(path);
    file << text;
    if (!file) throw std::runtime_error("cannot write " + path);
}

std::string assemble_relocatable(const std::string& name, const std::string& source, const std::string& processor,
                                 const std::string& extra) {
    const std::string s = write_source(name + ".s", source);
    const std::string o = work_dir() + "/" + name + ".o";
    run(llvm_for(processor).clang + " -x assembler -target amdgcn-amd-amdhsa -mcpu=" + processor + " " + extra +
        " -c " + s + " -o " + o);
    return o;
}

namespace {

// The assembled-kernel cache (DPPGEMM_TEST_KERNEL_CACHE, tests/support/CMakeLists.txt).
// Every input of assemble() is in an entry's key: the tools (path, size and
// modification time), processor, version, flags and source. An entry is
// <hash>.key with the key's text and <hash>.co, each written under another
// name and renamed, the key first; a lookup compares the whole key, so a
// hash collision is a miss. Only successes are kept. Files the source
// would `.include` or `.incbin` are not in the key: test kernels are whole
// sources (none includes another file).
std::string kernel_cache_key(const std::string& source, const std::string& processor, int version,
                             const std::string& extra) {
    std::ostringstream key;
    for (const std::string& tool : {llvm_for(processor).clang, lld()}) {
        std::error_code error;
        const auto size = std::filesystem::file_size(tool, error);
        const auto time = std::filesystem::last_write_time(tool, error).time_since_epoch().count();
        key << tool << ' ' << size << ' ' << time << '\n';
    }
    key << processor << ' ' << version << ' ' << extra << '\n' << source;
    return key.str();
}

std::string fnv1a_hex(const std::string& text) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return hex;
}

std::optional<std::string> read_if_exists(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Writes `bytes` to `path` atomically: readers see the whole file or none.
void publish(const std::string& path, const std::string& bytes) {
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    std::ofstream(temporary, std::ios::binary) << bytes;
    std::filesystem::rename(temporary, path);
}

}  // namespace

std::string assemble(const std::string& name, const std::string& source, const std::string& processor, int version,
                     const std::string& extra) {
    const std::string co = work_dir() + "/" + name + ".co";
    const std::string key = kernel_cache_key(source, processor, version, extra);
    const std::string entry = fnv1a_hex(key);
    for (const std::string& dir : kernel_cache_dirs()) {
        const auto cached_key = read_if_exists(dir + "/" + entry + ".key");
        if (cached_key != key) continue;
        if (const auto bytes = read_if_exists(dir + "/" + entry + ".co")) {
            write_text(co, *bytes);
            return co;
        }
    }
    const std::string o =
        assemble_relocatable(name, source, processor, "-mcode-object-version=" + std::to_string(version) + " " + extra);
    run(lld() + " -shared " + o + " -o " + co);
    const std::string& own = kernel_cache_dirs().front();
    std::filesystem::create_directories(own);
    publish(own + "/" + entry + ".key", key);
    publish(own + "/" + entry + ".co", *read_if_exists(co));
    return co;
}

std::string kernel_cache_entry(const std::string& source, const std::string& processor, int version,
                               const std::string& extra) {
    return kernel_cache_dirs().front() + "/" + fnv1a_hex(kernel_cache_key(source, processor, version, extra));
}

const std::vector<std::string>& kernel_cache_dirs() {
    static const std::vector<std::string> dirs = [] {
        std::vector<std::string> list{DPPGEMM_TEST_KERNEL_CACHE};
        if (*DPPGEMM_TEST_KERNEL_CACHE_FROM) list.push_back(DPPGEMM_TEST_KERNEL_CACHE_FROM);
        return list;
    }();
    return dirs;
}

std::string compile_hip(const std::string& source_path, const std::string& flags) {
    // A directory per compilation: one process may compile a source with several flag sets.
    const std::string co = fresh_dir("hip") + "/" + std::filesystem::path(source_path).stem().string() + ".co";
    // -O2 first, so that an -O0 in `flags` wins.
    run(hipcc() + " --cuda-device-only --no-gpu-bundle-output -O2 " + flags + " -c " + source_path + " -o " + co);
    return co;
}

std::string hipcc_gfx906(const std::string& name, const std::string& source, int version) {
    const std::string hip = write_source(name + ".hip", source);
    const std::string co = work_dir() + "/" + name + ".co";
    const std::string common =
        hipcc() + " --offload-arch=gfx906 --cuda-device-only -O2 -Wno-unused-command-line-argument ";
    if (version == 4) {
        run(common + "--no-gpu-bundle-output -c " + hip + " -o " + co);
        return co;
    }
    const std::string s = work_dir() + "/" + name + ".s";
    run(common + "-mcode-object-version=" + std::to_string(version) + " -S " + hip + " -o " + s);
    const std::string o = work_dir() + "/" + name + ".o";
    run(llvm15().clang + " -x assembler -target amdgcn-amd-amdhsa -mcpu=gfx906 -mcode-object-version=" +
        std::to_string(version) + " -c " + s + " -o " + o);
    run(lld() + " -shared " + o + " -o " + co);
    return co;
}

}  // namespace dppgemm::test_support
