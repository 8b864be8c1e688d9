// hiprtc, runtime compilation, by the installed HIP compiler: the program's
// source (and its named headers) go to a scratch directory and `hipcc
// --genco` compiles them for the emulated device (or the
// --gpu-architecture/--offload-arch the options name) into a code object
// bundle that hipModuleLoadData loads. The source is compiled as hiprtc
// compiles it: HIP's runtime header is included first, so the source needs
// no #include of its own. hipcc is `hipcc` on PATH, or DPPGEMM_HIPEMU_HIPCC.
//
// Name expressions (hiprtcAddNameExpression) are instantiated by a host
// function added to the source that takes each one's value; the lowered name
// is the kernel of the compiled code object whose demangled name, without
// return type and parameters, is the expression (whitespace and a leading &
// ignored).
#include <cxxabi.h>
#include <fcntl.h>
#include <hip/hiprtc.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "emu/loader/code_object.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "runtime.hpp"

extern char** environ;

struct _hiprtcProgram {
    std::string source, name;
    std::vector<std::pair<std::string, std::string>> headers;  // include name, contents
    std::vector<std::string> name_expressions;
    std::map<std::string, std::string> lowered;  // after compilation
    bool compiled = false;
    std::string log;
    std::vector<char> code;
};

namespace {

std::mutex programs_mutex;
std::set<hiprtcProgram> programs;

_hiprtcProgram* live(hiprtcProgram p) {
    std::lock_guard<std::mutex> lock(programs_mutex);
    return programs.count(p) ? p : nullptr;
}

std::string without_spaces(const std::string& s) {
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '\t' && c != '\n') out += c;
    return out;
}

// "void k<float>(float*, int)" -> "k<float>": the name between the return
// type and the parameter list.
std::string kernel_name_of(const std::string& demangled) {
    std::string s = demangled;
    const std::size_t paren = s.rfind('(');
    if (paren != std::string::npos) s = s.substr(0, paren);
    if (s.rfind("void ", 0) == 0) s = s.substr(5);
    return without_spaces(s);
}

std::string normalized_expression(const std::string& expression) {
    std::string s = without_spaces(expression);
    if (!s.empty() && s[0] == '&') s = s.substr(1);
    if (s.rfind("::", 0) == 0) s = s.substr(2);
    return s;
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

// Runs argv with stdout and stderr into log_path; the exit status, -1 when it could not run.
int run(const std::vector<std::string>& args, const std::string& log_path) {
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    // The compiler must not inherit the preload: it is not a HIP program.
    std::vector<char*> env;
    for (char** e = environ; e && *e; ++e)
        if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0) env.push_back(*e);
    env.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void remove_tree(const std::string& dir, const std::vector<std::string>& files) {
    for (const std::string& f : files) std::remove((dir + "/" + f).c_str());
    ::rmdir(dir.c_str());
}

hiprtcResult compile(_hiprtcProgram& p, int count, const char** options) {
    p.log.clear();
    p.code.clear();
    p.lowered.clear();
    p.compiled = false;
    const dppgemm::hipemu::EmulatedDevice* device = dppgemm::hipemu::Runtime::instance().device();
    std::string arch = device ? device->properties.gcnArchName : "gfx906";
    std::vector<std::string> passed;
    for (int i = 0; i < count; ++i) {
        if (!options || !options[i]) return HIPRTC_ERROR_INVALID_OPTION;
        const std::string o = options[i];
        for (const char* prefix : {"--gpu-architecture=", "--offload-arch=", "-arch="})
            if (o.rfind(prefix, 0) == 0) arch = o.substr(std::strlen(prefix));
        if (o.rfind("--gpu-architecture=", 0) == 0 || o.rfind("--offload-arch=", 0) == 0 || o.rfind("-arch=", 0) == 0 ||
            o == "-fgpu-rdc")
            continue;
        passed.push_back(o);
    }
    char scratch[] = "/tmp/hipemu-hiprtc-XXXXXX";
    if (!mkdtemp(scratch)) return HIPRTC_ERROR_INTERNAL_ERROR;
    const std::string dir = scratch;
    std::vector<std::string> files = {"program.hip", "program.co", "log"};
    std::string source = p.source + "\n";
    for (std::size_t i = 0; i < p.name_expressions.size(); ++i)
        source += "static void __hipemu_name_expression_" + std::to_string(i) +
                  "() { auto e = " + p.name_expressions[i] + "; (void)e; }\n";
    bool written = static_cast<bool>(std::ofstream(dir + "/program.hip") << source);
    for (const auto& [include_name, contents] : p.headers) {
        if (include_name.find('/') != std::string::npos || include_name.empty() || include_name[0] == '.') {
            p.log = "hipemu: hiprtc header name '" + include_name + "' must be a plain file name\n";
            remove_tree(dir, files);
            return HIPRTC_ERROR_INVALID_INPUT;
        }
        files.push_back(include_name);
        written = written && static_cast<bool>(std::ofstream(dir + "/" + include_name) << contents);
    }
    if (!written) {
        remove_tree(dir, files);
        return HIPRTC_ERROR_INTERNAL_ERROR;
    }
    const char* hipcc = std::getenv("DPPGEMM_HIPEMU_HIPCC");
    std::vector<std::string> args = {hipcc && *hipcc ? hipcc : "hipcc",
                                     "--genco",
                                     "--offload-arch=" + arch,
                                     "-include",
                                     "hip/hip_runtime.h",
                                     "-I" + dir};
    args.insert(args.end(), passed.begin(), passed.end());
    args.insert(args.end(), {dir + "/program.hip", "-o", dir + "/program.co"});
    const int status = run(args, dir + "/log");
    (void)read_file(dir + "/log", p.log);
    std::string code;
    const bool have_code = status == 0 && read_file(dir + "/program.co", code) && !code.empty();
    remove_tree(dir, files);
    if (status < 0) {
        p.log += "hipemu: hiprtc could not run the compiler '" + args[0] + "' (set DPPGEMM_HIPEMU_HIPCC)\n";
        return HIPRTC_ERROR_COMPILATION;
    }
    if (!have_code) return HIPRTC_ERROR_COMPILATION;
    p.code.assign(code.begin(), code.end());
    p.compiled = true;
    if (p.name_expressions.empty()) return HIPRTC_SUCCESS;
    // Lowered names: the kernels of the code object for `arch`.
    const std::string processor = arch.substr(0, arch.find(':'));
    const dppgemm::hipemu::ExtractedCodeObject elf =
        dppgemm::hipemu::extract_code_object(p.code.data(), p.code.size(), processor);
    if (!elf.data) return HIPRTC_SUCCESS;  // names stay unknown: hiprtcGetLoweredName says so
    const dppgemm::emu::CodeObject object = dppgemm::emu::load_code_object(elf.data, elf.size, p.name);
    for (const dppgemm::emu::Kernel& k : object.kernels) {
        int demangle_status = 0;
        std::unique_ptr<char, void (*)(void*)> demangled(
            abi::__cxa_demangle(k.name.c_str(), nullptr, nullptr, &demangle_status), std::free);
        const std::string readable = demangle_status == 0 && demangled ? kernel_name_of(demangled.get()) : k.name;
        for (const std::string& e : p.name_expressions)
            if (normalized_expression(e) == readable) p.lowered[e] = k.name;
    }
    return HIPRTC_SUCCESS;
}

// hiprtc entry points run behind the same guard as the HIP ones; an
// exception becomes HIPRTC_ERROR_INTERNAL_ERROR.
template <class F>
hiprtcResult guarded_rtc(const char* entry, F&& f) {
    hiprtcResult result = HIPRTC_ERROR_INTERNAL_ERROR;
    (void)dppgemm::hipemu::guarded(entry, [&]() -> hipError_t {
        result = f();
        return hipSuccess;
    });
    return result;
}

}  // namespace

extern "C" {

const char* hiprtcGetErrorString(hiprtcResult result) {
    switch (result) {
    case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
    case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
    case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
    case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
    case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
    case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
    case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
    case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE: return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
    case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION:
        return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
    case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
    case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID: return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
    case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
    }
    return "Invalid HIPRTC error code";
}

// What ROCm 5.2's hiprtc reports.
hiprtcResult hiprtcVersion(int* major, int* minor) {
    if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
    *major = 5;
    *minor = 2;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog, const char* src, const char* name, int numHeaders,
                                 const char** headers, const char** includeNames) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        if (!prog || !src || numHeaders < 0 || (numHeaders > 0 && (!headers || !includeNames)))
            return HIPRTC_ERROR_INVALID_INPUT;
        auto p = std::make_unique<_hiprtcProgram>();
        p->source = src;
        p->name = name ? name : "program";
        for (int i = 0; i < numHeaders; ++i) {
            if (!headers[i] || !includeNames[i]) return HIPRTC_ERROR_INVALID_INPUT;
            p->headers.emplace_back(includeNames[i], headers[i]);
        }
        std::lock_guard<std::mutex> lock(programs_mutex);
        *prog = p.release();
        programs.insert(*prog);
        return HIPRTC_SUCCESS;
    });
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        if (!prog) return HIPRTC_ERROR_INVALID_INPUT;
        std::lock_guard<std::mutex> lock(programs_mutex);
        if (programs.erase(*prog) != 1) return HIPRTC_ERROR_INVALID_PROGRAM;
        delete *prog;
        *prog = nullptr;
        return HIPRTC_SUCCESS;
    });
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char* name_expression) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        _hiprtcProgram* p = live(prog);
        if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
        if (!name_expression) return HIPRTC_ERROR_INVALID_INPUT;
        if (p->compiled) return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
        p->name_expressions.emplace_back(name_expression);
        return HIPRTC_SUCCESS;
    });
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char** options) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        _hiprtcProgram* p = live(prog);
        if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
        if (numOptions < 0) return HIPRTC_ERROR_INVALID_INPUT;
        return compile(*p, numOptions, options);
    });
}

hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char* name_expression, const char** lowered_name) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        _hiprtcProgram* p = live(prog);
        if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
        if (!name_expression || !lowered_name) return HIPRTC_ERROR_INVALID_INPUT;
        if (!p->compiled) return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
        auto it = p->lowered.find(name_expression);
        if (it == p->lowered.end()) return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
        *lowered_name = it->second.c_str();
        return HIPRTC_SUCCESS;
    });
}

hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t* logSizeRet) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        _hiprtcProgram* p = live(prog);
        if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
        if (!logSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
        *logSizeRet = p->log.size() + 1;
        return HIPRTC_SUCCESS;
    });
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char* log) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        _hiprtcProgram* p = live(prog);
        if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
        if (!log) return HIPRTC_ERROR_INVALID_INPUT;
        std::memcpy(log, p->log.c_str(), p->log.size() + 1);
        return HIPRTC_SUCCESS;
    });
}

hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t* codeSizeRet) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        _hiprtcProgram* p = live(prog);
        if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
        if (!codeSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
        *codeSizeRet = p->code.size();
        return HIPRTC_SUCCESS;
    });
}

hiprtcResult hiprtcGetCode(hiprtcProgram prog, char* code) {
    return guarded_rtc(__func__, [&]() -> hiprtcResult {
        _hiprtcProgram* p = live(prog);
        if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
        if (!code) return HIPRTC_ERROR_INVALID_INPUT;
        if (!p->compiled) return HIPRTC_ERROR_INVALID_PROGRAM;
        std::memcpy(code, p->code.data(), p->code.size());
        return HIPRTC_SUCCESS;
    });
}

}  // extern "C"
