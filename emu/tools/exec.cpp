// `dppgemm-emu exec [--no-check] -- PROGRAM ARGS...`: runs a HIP program on
// libdppgemm-hipemu, as `compute-sanitizer PROGRAM` does on NVIDIA GPUs: the
// library is preloaded (LD_PRELOAD) with the checkers on (or off with
// --no-check), the program's own output passes through, and a last line
// counts what hipemu reported (kernel faults, checker findings and HIP API
// errors, the last also by themselves):
//   dppgemm-emu exec: 2 findings; ./app exited with 0
//   dppgemm-emu exec: 3 findings (1 API error); ./app exited with 0
// Exit status: the program's when it is not 0, else 1 when there were
// findings, else 0; 128 + N when the program was killed by signal N; 2 when
// it could not be started (not found, not executable).

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "emu/tools/commands.hpp"

namespace dppgemm::emu::tools {
namespace {

namespace fs = std::filesystem;

// The library: $DPPGEMM_HIPEMU_LIBRARY, else beside an installed
// dppgemm-emu (bin/../lib), else where this build made it.
std::string hipemu_library() {
    if (const char* chosen = std::getenv("DPPGEMM_HIPEMU_LIBRARY"); chosen && *chosen) return chosen;
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (!error) {
        const fs::path installed = self.parent_path() / DPPGEMM_EMU_HIPEMU_RELATIVE / "libdppgemm-hipemu.so";
        if (fs::exists(installed, error)) return installed.lexically_normal().string();
    }
    return DPPGEMM_EMU_HIPEMU_BUILD_PATH;
}

// hipemu's findings file: a line per report, its kind (host/hipemu/checks.hpp).
struct Reported {
    std::size_t all = 0, api_errors = 0;
};
Reported count_reports(const std::string& path) {
    std::ifstream file(path);
    Reported r;
    for (std::string line; std::getline(file, line);) {
        r.all += !line.empty();
        r.api_errors += line == "api-error";
    }
    return r;
}

}  // namespace

int exec_command(const ExecOptions& options, std::ostream& out, std::ostream& err) {
    (void)out;
    if (options.command.empty()) {
        err << "dppgemm-emu exec: no program given (dppgemm-emu exec [--no-check] -- PROGRAM ARGS...)\n";
        return exit_usage;
    }
    const std::string library = hipemu_library();
    if (!fs::exists(library)) {
        err << "dppgemm-emu exec: libdppgemm-hipemu not found at '" << library
            << "' (set DPPGEMM_HIPEMU_LIBRARY to its path)\n";
        return exit_usage;
    }
    char findings_template[] = "/tmp/dppgemm-emu-exec-XXXXXX";
    const int findings_fd = mkstemp(findings_template);
    if (findings_fd < 0) {
        err << "dppgemm-emu exec: cannot create a findings file: " << std::strerror(errno) << "\n";
        return exit_usage;
    }
    close(findings_fd);
    const std::string findings_file = findings_template;

    // The child reports a failed execvp through this pipe (closed on a
    // successful exec), so that a program that cannot be started is a usage
    // error and not confused with one that ran and exited with 127.
    int exec_failure[2];
    if (pipe2(exec_failure, O_CLOEXEC) != 0) {
        err << "dppgemm-emu exec: pipe: " << std::strerror(errno) << "\n";
        std::remove(findings_file.c_str());
        return exit_usage;
    }
    err.flush();
    const pid_t child = fork();
    if (child < 0) {
        err << "dppgemm-emu exec: fork: " << std::strerror(errno) << "\n";
        close(exec_failure[0]);
        close(exec_failure[1]);
        std::remove(findings_file.c_str());
        return exit_usage;
    }
    if (child == 0) {
        const char* preload = std::getenv("LD_PRELOAD");
        const std::string preloads = library + (preload && *preload ? std::string(":") + preload : "");
        setenv("LD_PRELOAD", preloads.c_str(), 1);
        setenv("DPPGEMM_HIPEMU_FINDINGS_FILE", findings_file.c_str(), 1);
        if (!options.check) setenv("DPPGEMM_HIPEMU_CHECK", "0", 1);
        std::vector<char*> argv;
        for (const std::string& arg : options.command) argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        const int error = errno;
        (void)!write(exec_failure[1], &error, sizeof error);
        _exit(127);
    }
    close(exec_failure[1]);
    int exec_error = 0;
    ssize_t got;
    while ((got = read(exec_failure[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
    }
    close(exec_failure[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (got == ssize_t(sizeof exec_error)) {
        std::remove(findings_file.c_str());
        err << "dppgemm-emu exec: cannot run '" << options.command[0] << "': " << std::strerror(exec_error) << "\n";
        return exit_usage;
    }
    const Reported reported = count_reports(findings_file);
    const std::size_t findings = reported.all;
    std::remove(findings_file.c_str());

    std::string counted = std::to_string(findings) + (findings == 1 ? " finding" : " findings");
    if (reported.api_errors)
        counted +=
            " (" + std::to_string(reported.api_errors) + (reported.api_errors == 1 ? " API error)" : " API errors)");
    int code = 0;
    if (WIFSIGNALED(status)) {
        err << "dppgemm-emu exec: " << counted << "; " << options.command[0] << " was killed by signal "
            << WTERMSIG(status) << "\n";
        return 128 + WTERMSIG(status);
    }
    code = WEXITSTATUS(status);
    err << "dppgemm-emu exec: " << counted << "; " << options.command[0] << " exited with " << code << "\n";
    if (code != 0) return code;
    return findings ? exit_kernel_fault : exit_ok;
}

}  // namespace dppgemm::emu::tools
