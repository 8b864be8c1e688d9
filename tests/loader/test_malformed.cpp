// Malformed code objects: each is rejected with a CodeObjectError naming the
// source, the field and the offending value.
#include <catch2/catch.hpp>

#include <sstream>

#include "emu/loader/code_object.hpp"
#include "image_edit.hpp"
#include "toolchain.hpp"

using namespace dppgemm::emu;
using namespace loader_test;

namespace {

const Bytes& valid_gfx906() {
    static const Bytes bytes = read_bytes(assemble("valid_gfx906", two_kernels_source("gfx906", 4), "gfx906", 4));
    return bytes;
}

std::string rejection(const Bytes& bytes) {
    try {
        load_code_object(bytes.data(), bytes.size());
    } catch (const CodeObjectError& error) {
        CHECK(error.source() == "<memory>");
        CHECK(std::string(error.what()) == "<memory>: " + error.problem());
        return error.problem();
    }
    FAIL("accepted a malformed code object");
    return {};
}

template <typename Edit>
std::string rejection_after(Edit edit) {
    Bytes bytes = valid_gfx906();
    edit(bytes);
    return rejection(bytes);
}

// The wide kernel's descriptor: group 12288, private 64, kernarg 48.
std::size_t wide_descriptor(const Bytes& bytes) {
    const std::size_t at = find(bytes, Bytes{0x00, 0x30, 0, 0, 0x40, 0, 0, 0, 0x30, 0, 0, 0});
    REQUIRE(at != std::string::npos);
    return at;
}

std::string without_metadata(const std::string& source) { return source.substr(0, source.find("\t.amdgpu_metadata")); }

}  // namespace

TEST_CASE("rejects what is not a gfx9 code object v4/v5, naming the field", "[loader][malformed]") {
    CHECK(rejection({}) == "truncated: 0 bytes, shorter than the 64-byte ELF header");
    CHECK(rejection(Bytes(valid_gfx906().begin(), valid_gfx906().begin() + 63)) ==
          "truncated: 63 bytes, shorter than the 64-byte ELF header");
    CHECK(rejection_after([](Bytes& b) { b[1] = 'X'; }) == "not an ELF file (bad magic bytes)");
    CHECK(rejection_after([](Bytes& b) { b[ei_class] = 1; }) == "ELF class is 1, expected 2 (ELFCLASS64)");
    CHECK(rejection_after([](Bytes& b) { b[ei_data] = 2; }) == "ELF data encoding is 2, expected 1 (little-endian)");
    CHECK(rejection_after([](Bytes& b) { b[ei_osabi] = 0; }) == "OS ABI is 0, expected 64 (ELFOSABI_AMDGPU_HSA)");
    CHECK(rejection_after([](Bytes& b) { b[ei_abiversion] = 0; }) ==
          "code object v2 (ABI version 0) is not supported; use v4 or v5");
    CHECK(rejection_after([](Bytes& b) { b[ei_abiversion] = 9; }) ==
          "unknown code object ABI version 9 (2 = v4 and 3 = v5 are supported)");
    CHECK(rejection_after([](Bytes& b) { put<std::uint16_t>(b, e_machine, 62); }) ==
          "e_machine is 62, expected 224 (EM_AMDGPU)");
    CHECK(rejection_after([](Bytes& b) { put<std::uint32_t>(b, e_flags, 0x541); }) ==
          "unknown or unsupported target: EF_AMDGPU_MACH 0x41 (supported: gfx803 0x2a, gfx900 0x2c, gfx906 0x2f, "
          "gfx908 0x30, "
          "gfx90a 0x3f, gfx940 0x40, gfx942 0x4c)");
    CHECK(rejection_after([](Bytes& b) { put<std::uint32_t>(b, e_flags, 0x152f); }) ==
          "e_flags 0x152f sets unknown bits 0x1000");
    CHECK(rejection_after([](Bytes& b) { put<std::uint32_t>(b, e_flags, 0x42c); }) ==
          "e_flags 0x42c sets sramecc to any, but gfx900 has no sramecc");
}

TEST_CASE("rejects code object v3 and unlinked objects", "[loader][malformed]") {
    const std::string v3 =
        assemble("v3", two_kernels_source("gfx906", 4), "gfx906", 4, "-mllvm --amdhsa-code-object-version=3");
    CHECK(read_bytes(v3)[ei_abiversion] == 1);
    CHECK_THROWS_WITH(load_code_object(v3), v3 + ": code object v3 (ABI version 1) is not supported; use v4 or v5");
    const std::string object =
        assemble_relocatable("relocatable", two_kernels_source("gfx906", 4), "gfx906", "-mcode-object-version=4");
    CHECK_THROWS_WITH(load_code_object(object),
                      object + ": e_type is 1, expected 3 (ET_DYN): link the object with ld.lld -shared");
}

TEST_CASE("rejects missing or garbled metadata and descriptors", "[loader][malformed]") {
    const std::string source = two_kernels_source("gfx906", 4);
    const std::string no_metadata = assemble("no_metadata", without_metadata(source), "gfx906", 4);
    CHECK_THROWS_WITH(load_code_object(no_metadata), no_metadata + ": no NT_AMDGPU_METADATA note (missing metadata)");

    std::string renamed = source;
    renamed.replace(renamed.find(".symbol: narrow.kd"), 18, ".symbol: absent.kd");
    const std::string missing_kd = assemble("missing_kd", renamed, "gfx906", 4);
    CHECK_THROWS_WITH(load_code_object(missing_kd),
                      missing_kd + ": kernel 'narrow': descriptor symbol 'absent.kd' is missing");

    std::string pointing_at_code = source;
    pointing_at_code.replace(pointing_at_code.find(".symbol: narrow.kd"), 18, ".symbol: narrow");
    const std::string wrong_kd = assemble("wrong_kd", pointing_at_code, "gfx906", 4);
    CHECK_THROWS_WITH(load_code_object(wrong_kd), wrong_kd +
                                                      ": kernel 'narrow': descriptor symbol 'narrow' has type 2 "
                                                      "and size 8, expected an object (1) of 64 bytes");

    CHECK(rejection_after([](Bytes& b) { b[find(b, "global_buffer") + 12] = 'z'; }) ==
          "metadata amdhsa.kernels[0].args[0].value_kind: unknown value kind 'global_buffez'");
    CHECK(rejection_after([](Bytes& b) { b[find(b, "amdhsa.version") + 13] = 'X'; }) ==
          "metadata: missing required key amdhsa.version");
    CHECK(rejection_after([](Bytes& b) { b[find(b, ".kernarg_segment_align") + 1] = 'K'; }) ==
          "metadata amdhsa.kernels[0]: missing required key .kernarg_segment_align");
    CHECK(rejection_after([](Bytes& b) {
              const auto [at, size] = metadata_note(b);
              b[at] = 0xc1;  // a msgpack type byte that is never used
          }).rfind("metadata is not valid msgpack (", 0) == 0);
    CHECK(rejection_after([](Bytes& b) {
              const auto [at, size] = metadata_note(b);
              b[at + size - 1] = 0xdc;  // array16 header cut short
          }).rfind("metadata is not valid msgpack (", 0) == 0);
    // The wide kernel's ".offset: 16" of its third argument -> 48, past the
    // 48-byte kernarg segment.
    CHECK(rejection_after([](Bytes& b) {
              const std::size_t count = find(b, Bytes{0xa5, 'c', 'o', 'u', 'n', 't'});  // msgpack "count"
              b[find(Bytes(b.begin() + count, b.end()), ".offset") + count + 7] = 48;   // fixint after the key
          }) ==
          "metadata amdhsa.kernels[0].args[2]: argument at offset 48 of size 8 ends past the kernarg segment "
          "of 48 bytes");

    const std::size_t kd = wide_descriptor(valid_gfx906());
    CHECK(rejection_after([kd](Bytes& b) { put<std::int64_t>(b, kd + 16, 0x7fff0000 - 0x6c0); }) ==
          "kernel 'wide' code entry (descriptor at 0x6c0 + kernel_code_entry_byte_offset 2147416384) at 0x7fff0000 "
          "(4 bytes) does not lie inside any loaded section");
    CHECK(rejection_after([kd](Bytes& b) { put<std::int64_t>(b, kd + 16, get<std::int64_t>(b, kd + 16) + 4); }) ==
          "kernel 'wide' code entry (descriptor at 0x6c0 + kernel_code_entry_byte_offset 4420) = 0x1804 is not "
          "256-byte aligned");
    CHECK(rejection_after([kd](Bytes& b) { put<std::int64_t>(b, kd + 16, -0x6c0); }) ==
          "kernel 'wide' code entry (descriptor at 0x6c0 + kernel_code_entry_byte_offset -1728) at 0x0 (4 bytes) "
          "does not lie inside any loaded section");
    CHECK(rejection_after([kd](Bytes& b) { put<std::int64_t>(b, kd + 16, 0x40); }) ==
          "kernel 'wide' code entry (descriptor at 0x6c0 + kernel_code_entry_byte_offset 64) = 0x700 lies in "
          "non-executable section '.rodata'");
    CHECK(rejection_after([kd](Bytes& b) { b[kd + 53] |= 0x18; }) ==
          "kernel 'wide': kernel descriptor: compute_pgm_rsrc2 0x4001f9f: enable_vgpr_workitem_id is 3 (reserved; "
          "0..2 allowed)");
    CHECK(rejection_after([kd](Bytes& b) { b[kd + 57] |= 0x04; }) ==
          "kernel 'wide': kernel descriptor: kernel_code_properties 0x47f enables wave32, but gfx906 runs wave64 only");
    CHECK(rejection_after([kd](Bytes& b) { b[kd + 52] = (b[kd + 52] & 0xc1) | (3 << 1); }) ==
          "kernel 'wide': kernel descriptor: user_sgpr_count is 3, less than the 15 SGPRs the enabled user SGPRs "
          "take (kernel_code_properties 0x7f)");
    CHECK(rejection_after([kd](Bytes& b) { b[kd + 30] = 0x5a; }) ==
          "kernel 'wide': kernel descriptor: reserved byte 30 is 0x5a, must be 0");
    CHECK(rejection_after([kd](Bytes& b) { b[kd + 44] = 1; }) ==
          "kernel 'wide': kernel descriptor: compute_pgm_rsrc3 0x1 sets reserved bits 0x1");
    // kernarg_size (descriptor byte 8): 1 MiB loads, one byte more is refused.
    CHECK(rejection_after([kd](Bytes& b) { put<std::uint32_t>(b, kd + 8, (1u << 20) + 1); }) ==
          "kernel 'wide': kernarg segment of 1048577 bytes (metadata 48, descriptor 1048577); the emulator takes at "
          "most 1048576");
    Bytes largest = valid_gfx906();
    put<std::uint32_t>(largest, kd + 8, 1u << 20);
    CHECK(load_code_object(largest.data(), largest.size()).kernel("wide").descriptor.kernarg_size == 1u << 20);
}

TEST_CASE("rejects out-of-range ELF tables", "[loader][malformed]") {
    const Bytes& valid = valid_gfx906();
    const std::uint64_t size = valid.size();
    // Section headers past the end of the file.
    const std::string past_end = rejection_after([size](Bytes& b) { put<std::uint64_t>(b, e_shoff, size + 64); });
    CHECK(past_end.find("section") != std::string::npos);
    // A section whose contents run past the end of the file (.text is the
    // section with SHF_EXECINSTR; its header is the 8th here, sh_size at +32).
    const std::uint64_t shoff = get<std::uint64_t>(valid, e_shoff);
    const std::uint16_t shnum = get<std::uint16_t>(valid, e_shnum);
    std::size_t text_header = 0;
    for (std::size_t i = 0; i < shnum; ++i)
        if (get<std::uint64_t>(valid, shoff + i * 64 + 8) == 6) text_header = shoff + i * 64;  // ALLOC|EXECINSTR
    REQUIRE(text_header != 0);
    CHECK(rejection_after([&](Bytes& b) { put<std::uint64_t>(b, text_header + 32, size); }).find(".text") !=
          std::string::npos);
    // The first PT_LOAD segment's file size past the end of the file.
    const std::uint64_t phoff = get<std::uint64_t>(valid, e_phoff);
    std::size_t first_load = 0;
    for (std::size_t i = get<std::uint16_t>(valid, e_phnum); i-- > 0;)
        if (get<std::uint32_t>(valid, phoff + i * 56) == 1) first_load = i;  // PT_LOAD
    REQUIRE(first_load == 1);
    const std::size_t p_filesz = phoff + 56 + 32, p_memsz = p_filesz + 8;
    std::ostringstream expected;
    expected << "PT_LOAD program header 1: file range 0x0+0x" << std::hex << size + 1
             << " ends past the end of the file (0x" << size << " bytes)";
    CHECK(rejection_after([&](Bytes& b) {
              put<std::uint64_t>(b, p_filesz, size + 1);
              put<std::uint64_t>(b, p_memsz, size + 1);
          }) == expected.str());
    // The whole image cut in the middle of the section headers.
    CHECK(!rejection(Bytes(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(shoff + 100))).empty());
}

TEST_CASE("file errors name the path", "[loader][malformed]") {
    CHECK_THROWS_WITH(load_code_object(work_dir()), work_dir() + ": is a directory, not a code object");
    const std::string absent = work_dir() + "/absent.co";
    CHECK_THROWS_WITH(load_code_object(absent), absent + ": cannot open: No such file or directory");
    const std::string text = work_dir() + "/text.co";
    write_bytes(text, Bytes(100, 'x'));
    CHECK_THROWS_WITH(load_code_object(text), text + ": not an ELF file (bad magic bytes)");
    const std::string valid = assemble("unknown_kernel", two_kernels_source("gfx906", 4), "gfx906", 4);
    CHECK_THROWS_WITH(load_code_object(valid).kernel("sgemm"),
                      valid + ": no kernel named 'sgemm' (kernels: wide, narrow)");
}

TEST_CASE("legal but suspicious code objects load with a warning", "[loader][malformed]") {
    // v5 object whose hand-written metadata says 1.1 (msgpack [1, 2] -> [1, 1]).
    Bytes v5 = read_bytes(assemble("warn_v5", two_kernels_source("gfx906", 5), "gfx906", 5));
    const std::size_t version = find(v5, "amdhsa.version") + 14;
    REQUIRE(v5[version] == 0x92);  // fixarray of 2
    v5[version + 2] = 1;
    const CodeObject co = load_code_object(v5.data(), v5.size());
    CHECK(co.warnings == std::vector<std::string>{"metadata amdhsa.version 1.1 does not match code object v5 "
                                                  "(expected 1.2)"});

    // No .size for the kernel symbol: the code runs to the end of .text,
    // and the metadata's LDS size disagrees with the descriptor's.
    std::string source = two_kernels_source("gfx906", 4);
    source.replace(source.find("\t.size\tnarrow"), std::string("\t.size\tnarrow, .Lnarrow_end-narrow").size(), "");
    source.replace(source.find(".group_segment_fixed_size: 12288"), 32, ".group_segment_fixed_size: 12289");
    const CodeObject unsized = load_code_object(assemble("warn_unsized", source, "gfx906", 4));
    CHECK(unsized.warnings ==
          std::vector<std::string>{"kernel 'wide': metadata group_segment_fixed_size is 12289, descriptor says 12288",
                                   "kernel 'narrow': no sized STT_FUNC symbol at 0x1900; code taken to the end of its "
                                   "section (8 bytes)"});
    CHECK_FALSE(unsized.kernel("narrow").code_size_from_symbol);
    CHECK(unsized.kernel("narrow").code.size() == 8);
}

TEST_CASE("rejects metadata whose amdhsa.target disagrees with e_flags", "[loader][malformed][hipcc]") {
    Bytes hip = read_bytes(hipcc("target_mismatch", hip_source, 4));
    const std::size_t target = find(hip, "amdgcn-amd-amdhsa--gfx906");
    REQUIRE(target != std::string::npos);
    hip[target + 24] = '8';
    CHECK(rejection(hip) ==
          "metadata amdhsa.target 'amdgcn-amd-amdhsa--gfx908' does not match e_flags (amdgcn-amd-amdhsa--gfx906)");
}
