#pragma once
// Errors raised while reading an AMDGPU code object.

#include <stdexcept>
#include <string>

namespace dppgemm::emu {

// A code object that cannot be used: unreadable, malformed, or of a kind we
// do not support. what() reads "<source>: <problem>", where source is the file
// path or "<memory>", and problem names the field and the offending value.
class CodeObjectError : public std::runtime_error {
public:
    CodeObjectError(std::string source, std::string problem)
        : std::runtime_error(source + ": " + problem), source_(std::move(source)), problem_(std::move(problem)) {}

    const std::string& source() const { return source_; }
    const std::string& problem() const { return problem_; }

private:
    std::string source_;
    std::string problem_;
};

// Thrown by the parts of the loader that do not know the source name (the
// descriptor and metadata parsers); load_code_object() rethrows it as a
// CodeObjectError naming the source.
class FormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace dppgemm::emu
