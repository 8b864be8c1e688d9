#include "emu/loader/code_object.hpp"
#include "emu/loader/read_file.hpp"

#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "emu/util.hpp"

namespace dppgemm::emu {
namespace {

// AMDGPU values from LLVM's BinaryFormat/ELF.h (not in Debian's elf.h).
constexpr unsigned char elfosabi_amdgpu_hsa = 64;
constexpr unsigned char abi_version_v2 = 0, abi_version_v3 = 1, abi_version_v4 = 2, abi_version_v5 = 3;
constexpr std::uint32_t ef_amdgpu_mach = 0x0ff;
constexpr std::uint32_t ef_amdgpu_feature_xnack = 0x300;
constexpr std::uint32_t ef_amdgpu_feature_sramecc = 0xc00;
constexpr std::uint32_t nt_amdgpu_metadata = 32;
constexpr char note_owner_amdgpu[] = "AMDGPU";

constexpr std::uint64_t max_metadata_size = std::uint64_t(16) << 20;

[[noreturn]] void reject(const std::string& what) { throw FormatError(what); }

[[noreturn]] void reject_libelf(const std::string& what) { reject(what + ": " + elf_errmsg(-1)); }

void init_libelf() {
    static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
    if (!ready) reject("libelf does not support ELF version 1");
}

struct ElfCloser {
    void operator()(Elf* elf) const { elf_end(elf); }
};
using ElfHandle = std::unique_ptr<Elf, ElfCloser>;

FeatureSetting feature_setting(std::uint32_t flags, std::uint32_t mask) {
    // Two-bit field: 0 unsupported, 1 any, 2 off, 3 on (code object v4+).
    const unsigned shift = mask == ef_amdgpu_feature_xnack ? 8 : 10;
    return FeatureSetting((flags & mask) >> shift);
}

// Checks e_ident and the fixed header fields before libelf sees the image,
// so that the most common mistakes get the most precise messages.
unsigned check_identification(const std::vector<char>& image) {
    if (image.size() < sizeof(Elf64_Ehdr))
        reject("truncated: " + std::to_string(image.size()) + " bytes, shorter than the 64-byte ELF header");
    const auto* ident = reinterpret_cast<const unsigned char*>(image.data());
    if (std::memcmp(ident, ELFMAG, SELFMAG) != 0) {
        static constexpr char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__";
        if (std::memcmp(ident, bundle_magic, sizeof bundle_magic - 1) == 0)
            reject(
                "not an ELF file: this is a clang offload bundle (hipcc --genco output); extract one target's "
                "code object with clang-offload-bundler --unbundle --type=o "
                "--targets=hipv4-amdgcn-amd-amdhsa--gfx906 --input=FILE --output=FILE.co");
        reject("not an ELF file (bad magic bytes)");
    }
    if (ident[EI_CLASS] != ELFCLASS64)
        reject("ELF class is " + std::to_string(ident[EI_CLASS]) + ", expected 2 (ELFCLASS64)");
    if (ident[EI_DATA] != ELFDATA2LSB)
        reject("ELF data encoding is " + std::to_string(ident[EI_DATA]) + ", expected 1 (little-endian)");
    if (ident[EI_VERSION] != EV_CURRENT)
        reject("ELF identification version is " + std::to_string(ident[EI_VERSION]) + ", expected 1");
    if (ident[EI_OSABI] != elfosabi_amdgpu_hsa)
        reject("OS ABI is " + std::to_string(ident[EI_OSABI]) + ", expected 64 (ELFOSABI_AMDGPU_HSA)");
    switch (ident[EI_ABIVERSION]) {
    case abi_version_v4: return 4;
    case abi_version_v5: return 5;
    case abi_version_v2: reject("code object v2 (ABI version 0) is not supported; use v4 or v5");
    case abi_version_v3: reject("code object v3 (ABI version 1) is not supported; use v4 or v5");
    default:
        reject("unknown code object ABI version " + std::to_string(ident[EI_ABIVERSION]) +
               " (2 = v4 and 3 = v5 are supported)");
    }
}

// "gfx900 0x2c, gfx906 0x2f, ...": every target of the table with its EF_AMDGPU_MACH.
std::string supported_machs() {
    std::string text;
    for (Target target : all_targets)
        text += (text.empty() ? "" : ", ") + std::string(target_name(target)) + " " + hex(mach_of(target));
    return text;
}

TargetId decode_target(std::uint32_t flags) {
    const std::uint32_t unknown_bits = flags & ~(ef_amdgpu_mach | ef_amdgpu_feature_xnack | ef_amdgpu_feature_sramecc);
    if (unknown_bits) reject("e_flags " + hex(flags) + " sets unknown bits " + hex(unknown_bits));
    const std::optional<Target> processor = target_from_mach(flags & ef_amdgpu_mach);
    if (!processor)
        reject("unknown or unsupported target: EF_AMDGPU_MACH " + hex(flags & ef_amdgpu_mach) +
               " (supported: " + supported_machs() + ")");
    TargetId target;
    target.processor = *processor;
    target.xnack = feature_setting(flags, ef_amdgpu_feature_xnack);
    target.sramecc = feature_setting(flags, ef_amdgpu_feature_sramecc);
    if (!has(target.processor, Feature::sramecc) && target.sramecc != FeatureSetting::unsupported)
        reject("e_flags " + hex(flags) + " sets sramecc to " + feature_setting_name(target.sramecc) + ", but " +
               target_name(target.processor) + " has no sramecc");
    return target;
}

struct Section {
    std::string name;
    GElf_Shdr header;
    Elf_Scn* scn;
};

struct Symbol {
    std::uint64_t value;
    std::uint64_t size;
    unsigned char type;
};

// The parts of a libelf handle the loader walks, with bounds-checked access.
class ElfImage {
public:
    explicit ElfImage(std::vector<char>& image) {
        init_libelf();
        elf_.reset(elf_memory(image.data(), image.size()));
        if (!elf_) reject_libelf("cannot read ELF");
        if (elf_kind(elf_.get()) != ELF_K_ELF) reject("not an ELF file");
        if (!gelf_getehdr(elf_.get(), &header_)) reject_libelf("cannot read ELF header");
        read_sections();
    }

    const GElf_Ehdr& header() const { return header_; }
    const std::vector<Section>& sections() const { return sections_; }

    // Bytes of a section's contents, checked against the section size.
    std::pair<const std::uint8_t*, std::size_t> contents(const Section& section) const {
        if (section.header.sh_type == SHT_NOBITS) return {nullptr, 0};
        Elf_Data* data = elf_rawdata(section.scn, nullptr);
        if (!data) reject_libelf("cannot read section '" + section.name + "'");
        if (data->d_size != section.header.sh_size)
            reject("section '" + section.name + "' has " + std::to_string(data->d_size) + " bytes, header says " +
                   std::to_string(section.header.sh_size));
        return {static_cast<const std::uint8_t*>(data->d_buf), data->d_size};
    }

    // The section holding [address, address + size), which must be loaded
    // and have contents in the file.
    const Section& section_at(std::uint64_t address, std::uint64_t size, const std::string& what) const {
        for (const Section& section : sections_) {
            const GElf_Shdr& h = section.header;
            if (!(h.sh_flags & SHF_ALLOC) || h.sh_type == SHT_NOBITS) continue;
            if (address >= h.sh_addr && address - h.sh_addr < h.sh_size && size <= h.sh_size - (address - h.sh_addr))
                return section;
        }
        reject(what + " at " + hex(address) + " (" + std::to_string(size) +
               " bytes) does not lie inside any loaded section");
    }

    const std::uint8_t* bytes_at(std::uint64_t address, std::uint64_t size, const std::string& what) const {
        const Section& section = section_at(address, size, what);
        return contents(section).first + (address - section.header.sh_addr);
    }

    std::map<std::string, Symbol> symbols() const {
        // .symtab has everything; a stripped object still has .dynsym.
        const Section* table = find_section(SHT_SYMTAB);
        if (!table) table = find_section(SHT_DYNSYM);
        if (!table) reject("no symbol table (.symtab or .dynsym)");
        if (table->header.sh_entsize != sizeof(Elf64_Sym))
            reject("symbol table '" + table->name + "' entry size is " + std::to_string(table->header.sh_entsize) +
                   ", expected 24");
        Elf_Data* data = elf_getdata(table->scn, nullptr);
        if (!data) reject_libelf("cannot read symbol table '" + table->name + "'");
        std::map<std::string, Symbol> symbols;
        const std::size_t count = data->d_size / sizeof(Elf64_Sym);
        for (std::size_t i = 1; i < count; ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(data, static_cast<int>(i), &sym)) reject_libelf("cannot read symbol " + std::to_string(i));
            const char* name = elf_strptr(elf_.get(), table->header.sh_link, sym.st_name);
            if (!name)
                reject("symbol " + std::to_string(i) + " has an invalid name offset " + std::to_string(sym.st_name));
            symbols.emplace(name,
                            Symbol{sym.st_value, sym.st_size, static_cast<unsigned char>(GELF_ST_TYPE(sym.st_info))});
        }
        return symbols;
    }

    // The NT_AMDGPU_METADATA note's description; exactly one must exist.
    std::vector<std::uint8_t> metadata_note() const {
        std::optional<std::vector<std::uint8_t>> found;
        for (const Section& section : sections_) {
            if (section.header.sh_type != SHT_NOTE) continue;
            Elf_Data* data = elf_getdata(section.scn, nullptr);
            if (!data) reject_libelf("cannot read note section '" + section.name + "'");
            GElf_Nhdr note;
            std::size_t name_at = 0, desc_at = 0;
            for (std::size_t at = 0; at < data->d_size;) {
                const std::size_t next = gelf_getnote(data, at, &note, &name_at, &desc_at);
                if (next == 0)
                    reject("note section '" + section.name + "' has a malformed note at offset " + std::to_string(at));
                const auto* base = static_cast<const char*>(data->d_buf);
                const bool amdgpu_owner = note.n_namesz == sizeof note_owner_amdgpu &&
                                          std::memcmp(base + name_at, note_owner_amdgpu, sizeof note_owner_amdgpu) == 0;
                if (amdgpu_owner && note.n_type == nt_amdgpu_metadata) {
                    if (found) reject("more than one NT_AMDGPU_METADATA note");
                    if (note.n_descsz > max_metadata_size)
                        reject("metadata note of " + std::to_string(note.n_descsz) + " bytes is larger than 16 MiB");
                    found.emplace(base + desc_at, base + desc_at + note.n_descsz);
                }
                at = next;
            }
        }
        if (!found) reject("no NT_AMDGPU_METADATA note (missing metadata)");
        return *found;
    }

    // Entries of the SHT_RELA sections that apply to the loaded image
    // (.rela.dyn), with the values of the symbols they name.
    std::vector<Relocation> dynamic_relocations() const {
        std::vector<Relocation> relocations;
        for (const Section& section : sections_) {
            if (section.header.sh_type != SHT_RELA) continue;
            if (section.header.sh_info != 0)
                continue;  // relocations of one section (a relocatable object), not the image
            if (section.header.sh_entsize != sizeof(Elf64_Rela))
                reject("relocation section '" + section.name + "' entry size is " +
                       std::to_string(section.header.sh_entsize) + ", expected 24");
            Elf_Data* data = elf_getdata(section.scn, nullptr);
            if (!data) reject_libelf("cannot read relocation section '" + section.name + "'");
            Elf_Scn* symbols_scn = elf_getscn(elf_.get(), section.header.sh_link);
            Elf_Data* symbols = symbols_scn ? elf_getdata(symbols_scn, nullptr) : nullptr;
            const std::size_t count = data->d_size / sizeof(Elf64_Rela);
            for (std::size_t i = 0; i < count; ++i) {
                GElf_Rela rela;
                if (!gelf_getrela(data, static_cast<int>(i), &rela))
                    reject_libelf("cannot read relocation " + std::to_string(i) + " of '" + section.name + "'");
                Relocation r;
                r.offset = rela.r_offset;
                r.type = static_cast<std::uint32_t>(GELF_R_TYPE(rela.r_info));
                r.addend = rela.r_addend;
                if (const std::size_t symbol = GELF_R_SYM(rela.r_info); symbol != 0) {
                    GElf_Sym sym;
                    if (!symbols || !gelf_getsym(symbols, static_cast<int>(symbol), &sym))
                        reject("relocation " + std::to_string(i) + " of '" + section.name + "' names symbol " +
                               std::to_string(symbol) + ", which cannot be read");
                    if (sym.st_shndx == SHN_UNDEF)
                        reject("relocation " + std::to_string(i) + " of '" + section.name +
                               "' names an undefined symbol: the code object needs another to be linked");
                    r.symbol_value = sym.st_value;
                }
                relocations.push_back(r);
            }
        }
        return relocations;
    }

    std::vector<Segment> load_segments(std::size_t image_size, const std::vector<char>& image) const {
        std::size_t count = 0;
        if (elf_getphdrnum(elf_.get(), &count) != 0) reject_libelf("cannot read program headers");
        std::vector<Segment> segments;
        for (std::size_t i = 0; i < count; ++i) {
            GElf_Phdr phdr;
            if (!gelf_getphdr(elf_.get(), static_cast<int>(i), &phdr))
                reject_libelf("cannot read program header " + std::to_string(i));
            if (phdr.p_type != PT_LOAD) continue;
            const std::string which = "PT_LOAD program header " + std::to_string(i);
            if (phdr.p_offset > image_size || phdr.p_filesz > image_size - phdr.p_offset)
                reject(which + ": file range " + hex(phdr.p_offset) + "+" + hex(phdr.p_filesz) +
                       " ends past the end of the file (" + hex(image_size) + " bytes)");
            if (phdr.p_filesz > phdr.p_memsz)
                reject(which + ": file size " + hex(phdr.p_filesz) + " exceeds memory size " + hex(phdr.p_memsz));
            if (phdr.p_vaddr > max_code_object_bytes || phdr.p_memsz > max_code_object_bytes - phdr.p_vaddr)
                reject(which + ": segment " + hex(phdr.p_vaddr) + "+" + hex(phdr.p_memsz) +
                       " ends past the emulator's 256 MiB code object image");
            Segment segment;
            segment.vaddr = phdr.p_vaddr;
            segment.memory_size = phdr.p_memsz;
            segment.flags = phdr.p_flags;
            segment.file_bytes.assign(image.begin() + static_cast<std::ptrdiff_t>(phdr.p_offset),
                                      image.begin() + static_cast<std::ptrdiff_t>(phdr.p_offset + phdr.p_filesz));
            segments.push_back(std::move(segment));
        }
        return segments;
    }

private:
    void read_sections() {
        std::size_t string_table = 0;
        if (elf_getshdrstrndx(elf_.get(), &string_table) != 0) reject_libelf("cannot find section name table");
        for (Elf_Scn* scn = elf_nextscn(elf_.get(), nullptr); scn; scn = elf_nextscn(elf_.get(), scn)) {
            Section section;
            section.scn = scn;
            if (!gelf_getshdr(scn, &section.header)) reject_libelf("cannot read section header");
            const char* name = elf_strptr(elf_.get(), string_table, section.header.sh_name);
            if (!name)
                reject("section " + std::to_string(elf_ndxscn(scn)) + " has an invalid name offset " +
                       std::to_string(section.header.sh_name));
            section.name = name;
            sections_.push_back(std::move(section));
        }
        if (sections_.empty()) reject("no section headers");
    }

    const Section* find_section(std::uint32_t type) const {
        for (const Section& section : sections_)
            if (section.header.sh_type == type) return &section;
        return nullptr;
    }

    ElfHandle elf_;
    GElf_Ehdr header_{};
    std::vector<Section> sections_;
};

// Finds the machine code of one kernel: from its entry to the end of the
// STT_FUNC symbol there, or to the end of the section without one.
void load_kernel_code(const ElfImage& elf, const std::map<std::string, Symbol>& symbols, Kernel& kernel) {
    const std::int64_t entry_offset = kernel.descriptor.kernel_code_entry_byte_offset;
    const std::uint64_t entry = kernel.descriptor_address + static_cast<std::uint64_t>(entry_offset);
    const std::string what = "kernel '" + kernel.name + "' code entry (descriptor at " +
                             hex(kernel.descriptor_address) + " + kernel_code_entry_byte_offset " +
                             std::to_string(entry_offset) + ")";
    if (entry % 256 != 0) reject(what + " = " + hex(entry) + " is not 256-byte aligned");
    const Section& section = elf.section_at(entry, 4, what);
    if (!(section.header.sh_flags & SHF_EXECINSTR))
        reject(what + " = " + hex(entry) + " lies in non-executable section '" + section.name + "'");

    std::uint64_t size = section.header.sh_size - (entry - section.header.sh_addr);  // to the section end
    for (const auto& [name, symbol] : symbols) {
        if (symbol.type != STT_FUNC || symbol.value != entry || symbol.size == 0) continue;
        if (symbol.size > size)
            reject("kernel '" + kernel.name + "' function symbol '" + name + "' of " + std::to_string(symbol.size) +
                   " bytes at " + hex(entry) + " ends past its section '" + section.name + "'");
        size = symbol.size;
        kernel.code_size_from_symbol = true;
        break;
    }
    if (size % 4 != 0)
        reject("kernel '" + kernel.name + "' code size " + std::to_string(size) + " is not a multiple of 4");
    const std::uint8_t* code = elf.bytes_at(entry, size, what);
    kernel.code_address = entry;
    kernel.code.assign(code, code + size);
}

// CodeObject::functions. Symbols that are not sized functions in an executable
// section, or whose size is not whole instruction words, are not code to run.
std::vector<Function> load_functions(const ElfImage& elf, const std::map<std::string, Symbol>& symbols) {
    std::vector<Function> functions;
    for (const auto& [name, symbol] : symbols) {
        if (symbol.type != STT_FUNC || symbol.size == 0 || symbol.size % 4 != 0) continue;
        const std::string what = "function '" + name + "'";
        const Section& section = elf.section_at(symbol.value, symbol.size, what);
        if (!(section.header.sh_flags & SHF_EXECINSTR)) continue;
        const std::uint8_t* code = elf.bytes_at(symbol.value, symbol.size, what);
        functions.push_back(Function{name, symbol.value, std::vector<std::uint8_t>(code, code + symbol.size)});
    }
    std::sort(functions.begin(), functions.end(),
              [](const Function& a, const Function& b) { return a.address < b.address; });
    return functions;
}

void check_agreement(const Kernel& kernel, std::vector<std::string>& warnings) {
    const KernelMetadata& md = kernel.metadata;
    const KernelDescriptor& kd = kernel.descriptor;
    auto disagree = [&](const char* what, std::uint64_t in_metadata, std::uint64_t in_descriptor) {
        warnings.push_back("kernel '" + kernel.name + "': metadata " + what + " is " + std::to_string(in_metadata) +
                           ", descriptor says " + std::to_string(in_descriptor));
    };
    if (md.group_segment_fixed_size != kd.group_segment_fixed_size)
        disagree("group_segment_fixed_size", md.group_segment_fixed_size, kd.group_segment_fixed_size);
    if (md.private_segment_fixed_size != kd.private_segment_fixed_size)
        disagree("private_segment_fixed_size", md.private_segment_fixed_size, kd.private_segment_fixed_size);
    // Hand-written kernels often leave .amdhsa_kernarg_size at 0.
    if (kd.kernarg_size != 0 && md.kernarg_segment_size != kd.kernarg_size)
        disagree("kernarg_segment_size", md.kernarg_segment_size, kd.kernarg_size);
    if (md.vgpr_count > kd.allocated_vgprs)
        disagree("vgpr_count (more than allocated)", md.vgpr_count, kd.allocated_vgprs);
    if (md.sgpr_count > kd.allocated_sgprs)
        disagree("sgpr_count (more than allocated)", md.sgpr_count, kd.allocated_sgprs);
    if (!kernel.code_size_from_symbol)
        warnings.push_back("kernel '" + kernel.name + "': no sized STT_FUNC symbol at " + hex(kernel.code_address) +
                           "; code taken to the end of its section (" + std::to_string(kernel.code.size()) + " bytes)");
}

// AMDGPU ELF relocation types a loader applies to the image.
constexpr std::uint32_t r_amdgpu_abs32_lo = 1, r_amdgpu_abs32_hi = 2, r_amdgpu_abs64 = 3, r_amdgpu_abs32 = 6,
                        r_amdgpu_relative64 = 13;

// Bytes a relocation writes; 0 for types the loader does not apply.
std::uint64_t relocation_width(std::uint32_t type) {
    switch (type) {
    case r_amdgpu_abs32_lo:
    case r_amdgpu_abs32_hi:
    case r_amdgpu_abs32: return 4;
    case r_amdgpu_abs64:
    case r_amdgpu_relative64: return 8;
    default: return 0;
    }
}

CodeObject load_image(std::vector<char>& image, std::string source) {
    CodeObject co;
    co.source = std::move(source);
    co.abi_version = check_identification(image);

    ElfImage elf(image);
    const GElf_Ehdr& header = elf.header();
    if (header.e_machine != EM_AMDGPU)
        reject("e_machine is " + std::to_string(header.e_machine) + ", expected 224 (EM_AMDGPU)");
    if (header.e_type != ET_DYN)
        reject("e_type is " + std::to_string(header.e_type) +
               ", expected 3 (ET_DYN): link the object with ld.lld -shared");
    co.target = decode_target(header.e_flags);

    const std::vector<std::uint8_t> note = elf.metadata_note();
    const Metadata metadata = parse_metadata(note.data(), note.size());
    co.metadata_version_major = metadata.version_major;
    co.metadata_version_minor = metadata.version_minor;
    const unsigned expected_minor = co.abi_version == 4 ? 1 : 2;
    // The assembler copies hand-written metadata verbatim, so a v5 object
    // built from v4-style sources says 1.1; legal, but worth a note.
    if (metadata.version_minor != expected_minor)
        co.warnings.push_back("metadata amdhsa.version " + std::to_string(metadata.version_major) + "." +
                              std::to_string(metadata.version_minor) + " does not match code object v" +
                              std::to_string(co.abi_version) + " (expected 1." + std::to_string(expected_minor) + ")");
    const std::string expected_target = "amdgcn-amd-amdhsa--" + co.target.str();
    if (!metadata.target.empty() && metadata.target != expected_target)
        reject("metadata amdhsa.target '" + metadata.target + "' does not match e_flags (" + expected_target + ")");

    const std::map<std::string, Symbol> symbols = elf.symbols();
    for (const KernelMetadata& kernel_metadata : metadata.kernels) {
        Kernel kernel;
        kernel.name = kernel_metadata.name;
        kernel.metadata = kernel_metadata;
        const auto kd_symbol = symbols.find(kernel_metadata.symbol);
        if (kd_symbol == symbols.end())
            reject("kernel '" + kernel.name + "': descriptor symbol '" + kernel_metadata.symbol + "' is missing");
        const Symbol& kd = kd_symbol->second;
        if (kd.type != STT_OBJECT || kd.size != kernel_descriptor_size)
            reject("kernel '" + kernel.name + "': descriptor symbol '" + kernel_metadata.symbol + "' has type " +
                   std::to_string(kd.type) + " and size " + std::to_string(kd.size) +
                   ", expected an object (1) of 64 bytes");
        kernel.descriptor_address = kd.value;
        std::uint8_t descriptor_bytes[kernel_descriptor_size];
        std::memcpy(descriptor_bytes,
                    elf.bytes_at(kd.value, kernel_descriptor_size, "kernel '" + kernel.name + "' descriptor"),
                    kernel_descriptor_size);
        try {
            kernel.descriptor = decode_kernel_descriptor(descriptor_bytes, co.target.processor);
        } catch (const FormatError& error) {
            reject("kernel '" + kernel.name + "': " + error.what());
        }
        // A launch allocates, zeroes and copies the larger of the two kernarg
        // sizes; compilers emit a few hundred bytes. A descriptor claiming
        // gigabytes (a fuzzed one said 3,669,509,015) cost seconds of page
        // zeroing per launch before anything ran.
        const std::uint64_t kernarg_size =
            std::max<std::uint64_t>(kernel.descriptor.kernarg_size, kernel.metadata.kernarg_segment_size);
        if (kernarg_size > max_kernarg_segment_size)
            reject("kernel '" + kernel.name + "': kernarg segment of " + std::to_string(kernarg_size) +
                   " bytes (metadata " + std::to_string(kernel.metadata.kernarg_segment_size) + ", descriptor " +
                   std::to_string(kernel.descriptor.kernarg_size) + "); the emulator takes at most " +
                   std::to_string(max_kernarg_segment_size));
        load_kernel_code(elf, symbols, kernel);
        check_agreement(kernel, co.warnings);
        co.kernels.push_back(std::move(kernel));
    }
    co.functions = load_functions(elf, symbols);
    co.segments = elf.load_segments(image.size(), image);
    for (const auto& [name, symbol] : symbols) {
        const bool descriptor = name.size() > 3 && name.compare(name.size() - 3, 3, ".kd") == 0;
        if (symbol.type == STT_OBJECT && symbol.size > 0 && !descriptor && name[0] != '.')
            co.variables.push_back(Variable{name, symbol.value, symbol.size});
    }
    co.relocations = elf.dynamic_relocations();
    const std::uint64_t end = co.image_size();
    for (const Relocation& r : co.relocations) {
        if (!relocation_width(r.type))
            reject("dynamic relocation of type " + std::to_string(r.type) + " at " + hex(r.offset) +
                   " is not one the AMDGPU loader applies (R_AMDGPU_ABS32_LO/HI, ABS64, ABS32, RELATIVE64)");
        if (r.offset > end || relocation_width(r.type) > end - r.offset)
            reject("dynamic relocation at " + hex(r.offset) + " lies outside the loaded segments (" + hex(end) +
                   " bytes)");
    }
    return co;
}

// load_image() with its errors named after the source.
CodeObject load_named(std::vector<char>& image, const std::string& source) {
    try {
        return load_image(image, source);
    } catch (const FormatError& error) {
        throw CodeObjectError(source, error.what());
    } catch (const std::bad_alloc&) {
        throw CodeObjectError(source, "out of memory while loading");
    }
}

}  // namespace

const Kernel* CodeObject::find_kernel(std::string_view name) const {
    for (const Kernel& kernel : kernels)
        if (kernel.name == name) return &kernel;
    return nullptr;
}

const Kernel& CodeObject::kernel(std::string_view name) const {
    if (const Kernel* found = find_kernel(name)) return *found;
    std::string known;
    for (const Kernel& kernel : kernels) known += (known.empty() ? "" : ", ") + kernel.name;
    throw CodeObjectError(
        source, "no kernel named '" + std::string(name) + "' (kernels: " + (known.empty() ? "none" : known) + ")");
}

const Variable* CodeObject::find_variable(std::string_view name) const {
    for (const Variable& variable : variables)
        if (variable.name == name) return &variable;
    return nullptr;
}

std::uint64_t CodeObject::image_size() const {
    std::uint64_t end = 0;
    for (const Segment& s : segments) end = std::max(end, s.vaddr + s.memory_size);
    return end;
}

std::vector<std::uint8_t> loaded_image(const CodeObject& code_object, std::uint64_t base) {
    std::vector<std::uint8_t> image(code_object.image_size(), 0);
    for (const Segment& s : code_object.segments)
        std::copy(s.file_bytes.begin(), s.file_bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(s.vaddr));
    // Values as the AMDGPU ELF ABI defines them: B the base, S the symbol's
    // address in the image, A the addend (checked in range by load_image).
    for (const Relocation& r : code_object.relocations) {
        const std::uint64_t absolute = base + r.symbol_value + static_cast<std::uint64_t>(r.addend);
        std::uint64_t value = absolute;
        if (r.type == r_amdgpu_relative64) value = base + static_cast<std::uint64_t>(r.addend);
        if (r.type == r_amdgpu_abs32_hi) value = absolute >> 32;
        std::memcpy(image.data() + r.offset, &value, relocation_width(r.type));
    }
    return image;
}

CodeObject load_code_object(const void* bytes, std::size_t size, std::string source_name) {
    std::vector<char> image(static_cast<const char*>(bytes), static_cast<const char*>(bytes) + size);
    return load_named(image, source_name);
}

std::vector<char> read_code_object_file(const std::string& path) {
    try {
        return read_whole_file(path, max_code_object_bytes);
    } catch (const FileReadError& error) {
        switch (error.kind()) {
        case FileReadError::Kind::cannot_open: throw CodeObjectError(path, std::string("cannot open: ") + error.what());
        case FileReadError::Kind::not_a_file: throw CodeObjectError(path, "is a directory, not a code object");
        default: throw CodeObjectError(path, error.what());
        }
    }
}

CodeObject load_code_object(const std::string& path) {
    std::vector<char> image = read_code_object_file(path);
    return load_named(image, path);
}

}  // namespace dppgemm::emu
