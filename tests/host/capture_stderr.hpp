// Everything written to file descriptor 2 while an object lives, for tests of
// what a library says on stderr.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>

class CapturedStderr {
public:
    CapturedStderr() : file_(std::tmpfile()), saved_(dup(2)) {
        if (!file_ || saved_ < 0) throw std::runtime_error("cannot capture stderr");
        std::fflush(stderr);
        dup2(fileno(file_), 2);
    }
    ~CapturedStderr() {
        restore();
        std::fclose(file_);
    }
    CapturedStderr(const CapturedStderr&) = delete;
    CapturedStderr& operator=(const CapturedStderr&) = delete;

    // Stops capturing and returns the text.
    std::string text() {
        restore();
        std::string out;
        std::rewind(file_);
        for (int ch; (ch = std::fgetc(file_)) != EOF;) out += char(ch);
        return out;
    }

private:
    void restore() {
        if (saved_ < 0) return;
        std::fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        saved_ = -1;
    }
    std::FILE* file_;
    int saved_;
};

inline std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}
