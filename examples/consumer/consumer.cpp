// Calls an installed dppgemm: dppgemm::sgemm on the emulator, bitwise against
// the same-order reference, and the installed code-object file equal to the
// one embedded in the library. Prints one line; exit code 0 when all hold.
#include <dppgemm/code_objects.h>
#include <dppgemm/dppgemm.hpp>
#include <dppgemm/reference.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

// Small exact values from a fixed recurrence: the same on every machine.
std::vector<float> matrix(std::size_t count, unsigned seed) {
    std::vector<float> v(count);
    for (float& x : v) {
        seed = seed * 1103515245u + 12345u;
        x = float(int(seed >> 16) % 17 - 8) / 16.0f;
    }
    return v;
}

bool installed_file_matches(const dppgemm_code_object& co) {
    const std::string path = std::string(DPPGEMM_CODE_OBJECT_DIR) + "/" + co.target + "/" + co.kernel_name + ".co";
    std::ifstream file(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (bytes.size() != co.size || std::memcmp(bytes.data(), co.data, co.size) != 0) {
        std::fprintf(stderr, "consumer: %s differs from the embedded %s (%zu bytes, %zu expected)\n", path.c_str(),
                     co.kernel_name, bytes.size(), co.size);
        return false;
    }
    return true;
}

}  // namespace

int main() {
    const int m = 150, n = 70, k = 33;
    const std::vector<float> a = matrix(std::size_t(m) * k, 1), b = matrix(std::size_t(k) * n, 2);
    std::vector<float> c = matrix(std::size_t(m) * n, 3), expected = c;
    dppgemm::Options options;
    options.backend = dppgemm::Backend::emu;
    options.emu_target = "gfx906";
    const dppgemm::Result r =
        dppgemm::sgemm('N', 'N', m, n, k, 1.5f, a.data(), m, b.data(), k, 0.25f, c.data(), m, options);
    if (!r) {
        std::fprintf(stderr, "consumer: sgemm failed: %s\n", r.message.c_str());
        return 1;
    }
    dppgemm::reference_sgemm(dppgemm::kernel_mac_kind(options.variant, options.emu_target), 'N', 'N', m, n, k, 1.5f,
                             a.data(), m, b.data(), k, 0.25f, expected.data(), m);
    const bool equal = std::memcmp(c.data(), expected.data(), c.size() * sizeof(float)) == 0;
    const dppgemm_code_object* co = dppgemm_find_code_object("gfx906", "dpp2", "NN");
    const bool file_ok = co && installed_file_matches(*co);
    std::printf("consumer: %s on %s (%s), M=%d N=%d K=%d: %s; %zu code objects, installed files %s\n", r.kernel.c_str(),
                r.target.c_str(), dppgemm::to_string(r.backend), m, n, k,
                equal ? "bitwise equal to the reference" : "DIFFERENT from the reference", dppgemm_code_object_count(),
                file_ok ? "match" : "DO NOT match");
    return equal && file_ok ? 0 : 1;
}
