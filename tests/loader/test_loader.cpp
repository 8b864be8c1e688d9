// The loader against real code objects built at test time (clang-15/19 +
// ld.lld-15 from assembly, hipcc from HIP C++), with LLVM's own tools as the
// independent oracle: llvm-objdump-19 decodes the kernel descriptors,
// llvm-readelf-15 prints the metadata, llvm-objdump prints the code bytes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "emu/loader/code_object.hpp"
#include "toolchain.hpp"

using namespace dppgemm::emu;
using loader_test::objdump_descriptor;

namespace {

const std::vector<std::string> processors = {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx942"};

bool unified(const std::string& processor) {
    return processor == "gfx90a" || processor == "gfx940" || processor == "gfx942";
}
bool architected_scratch(const std::string& processor) { return processor == "gfx940" || processor == "gfx942"; }

// Every descriptor field the loader decodes, against llvm-objdump-19's
// decoding of the same 64 bytes.
void check_descriptor_against_objdump(const std::map<std::string, std::int64_t>& llvm, const std::string& path,
                                      const Kernel& kernel, Target target) {
    const KernelDescriptor& kd = kernel.descriptor;
    INFO(path << " kernel " << kernel.name);
    CHECK(llvm.at("group_segment_fixed_size") == kd.group_segment_fixed_size);
    CHECK(llvm.at("private_segment_fixed_size") == kd.private_segment_fixed_size);
    CHECK(llvm.at("kernarg_size") == kd.kernarg_size);
    CHECK(llvm.at("next_free_vgpr") == kd.allocated_vgprs);
    CHECK(llvm.at("next_free_sgpr") == kd.allocated_sgprs);
    if (has_unified_vgpr_file(target)) {
        CHECK(llvm.at("accum_offset") == kd.accum_offset);
        CHECK(llvm.at("tg_split") == kd.tg_split);
    }
    CHECK(llvm.at("float_round_mode_32") == int(kd.float_mode.round_32));
    CHECK(llvm.at("float_round_mode_16_64") == int(kd.float_mode.round_16_64));
    CHECK(llvm.at("float_denorm_mode_32") == int(kd.float_mode.denorm_32));
    CHECK(llvm.at("float_denorm_mode_16_64") == int(kd.float_mode.denorm_16_64));
    CHECK(llvm.at("dx10_clamp") == kd.float_mode.dx10_clamp);
    CHECK(llvm.at("ieee_mode") == kd.float_mode.ieee_mode);
    CHECK(llvm.at("fp16_overflow") == kd.float_mode.fp16_overflow);
    const char* private_segment = has_architected_flat_scratch(target) ? "enable_private_segment"
                                                                       : "system_sgpr_private_segment_wavefront_offset";
    CHECK(llvm.at(private_segment) == kd.system_sgprs.private_segment_wave_offset);
    CHECK(llvm.at("system_sgpr_workgroup_id_x") == kd.system_sgprs.workgroup_id_x);
    CHECK(llvm.at("system_sgpr_workgroup_id_y") == kd.system_sgprs.workgroup_id_y);
    CHECK(llvm.at("system_sgpr_workgroup_id_z") == kd.system_sgprs.workgroup_id_z);
    CHECK(llvm.at("system_sgpr_workgroup_info") == kd.system_sgprs.workgroup_info);
    CHECK(llvm.at("system_vgpr_workitem_id") == kd.enable_vgpr_workitem_id);
    CHECK(llvm.at("exception_fp_ieee_invalid_op") == ((kd.exceptions >> 0) & 1));
    CHECK(llvm.at("exception_fp_ieee_div_zero") == ((kd.exceptions >> 2) & 1));
    CHECK(llvm.at("exception_int_div_zero") == ((kd.exceptions >> 6) & 1));
    if (!has_architected_flat_scratch(target)) {
        CHECK(llvm.at("user_sgpr_private_segment_buffer") == kd.user_sgprs.private_segment_buffer);
        CHECK(llvm.at("user_sgpr_flat_scratch_init") == kd.user_sgprs.flat_scratch_init);
    }
    CHECK(llvm.at("user_sgpr_dispatch_ptr") == kd.user_sgprs.dispatch_ptr);
    CHECK(llvm.at("user_sgpr_queue_ptr") == kd.user_sgprs.queue_ptr);
    CHECK(llvm.at("user_sgpr_kernarg_segment_ptr") == kd.user_sgprs.kernarg_segment_ptr);
    CHECK(llvm.at("user_sgpr_dispatch_id") == kd.user_sgprs.dispatch_id);
    CHECK(llvm.at("user_sgpr_private_segment_size") == kd.user_sgprs.private_segment_size);
}

// Kernel-level metadata against llvm-readelf-15 --notes.
void check_metadata_against_readelf(const std::vector<std::map<std::string, std::string>>& llvm,
                                    const std::string& path, const CodeObject& co) {
    REQUIRE(llvm.size() == co.kernels.size());
    for (std::size_t i = 0; i < llvm.size(); ++i) {
        const KernelMetadata& md = co.kernels[i].metadata;
        const std::map<std::string, std::string>& keys = llvm[i];
        INFO(path << " kernel " << md.name);
        CHECK(keys.at("name") == md.name);
        CHECK(keys.at("symbol") == md.symbol);
        CHECK(keys.at("kernarg_segment_size") == std::to_string(md.kernarg_segment_size));
        CHECK(keys.at("kernarg_segment_align") == std::to_string(md.kernarg_segment_align));
        CHECK(keys.at("group_segment_fixed_size") == std::to_string(md.group_segment_fixed_size));
        CHECK(keys.at("private_segment_fixed_size") == std::to_string(md.private_segment_fixed_size));
        CHECK(keys.at("wavefront_size") == std::to_string(md.wavefront_size));
        CHECK(keys.at("sgpr_count") == std::to_string(md.sgpr_count));
        CHECK(keys.at("vgpr_count") == std::to_string(md.vgpr_count));
        CHECK(keys.at("max_flat_workgroup_size") == std::to_string(md.max_flat_workgroup_size));
        if (keys.count("agpr_count")) CHECK(keys.at("agpr_count") == std::to_string(md.agpr_count));
    }
}

void check_code_against_objdump(const std::string& path, const Kernel& kernel, const std::string& mcpu,
                                const std::string& function_symbol) {
    INFO(path << " kernel " << kernel.name);
    CHECK(kernel.code_address ==
          kernel.descriptor_address + std::uint64_t(kernel.descriptor.kernel_code_entry_byte_offset));
    CHECK(kernel.code == loader_test::objdump_code(path, function_symbol, mcpu));
}

// The PT_LOAD segments against llvm-readelf -l, and each kernel's code
// found again in the executable segment at its address.
void check_segments_against_readelf(const std::vector<loader_test::LoadSegment>& llvm, const CodeObject& co) {
    REQUIRE(llvm.size() == co.segments.size());
    for (std::size_t i = 0; i < llvm.size(); ++i) {
        const Segment& segment = co.segments[i];
        CHECK(segment.vaddr == llvm[i].vaddr);
        CHECK(segment.file_bytes.size() == llvm[i].file_size);
        CHECK(segment.memory_size == llvm[i].memory_size);
        const std::string flags = std::string(segment.flags & 4 ? "R" : " ") + (segment.flags & 2 ? "W" : " ") +
                                  (segment.flags & 1 ? "E" : " ");
        CHECK(flags == llvm[i].flags);
    }
    for (const Kernel& kernel : co.kernels) {
        const auto executable = std::find_if(co.segments.begin(), co.segments.end(), [&](const Segment& s) {
            return (s.flags & 1) && kernel.code_address >= s.vaddr &&
                   kernel.code_address + kernel.code.size() <= s.vaddr + s.file_bytes.size();
        });
        REQUIRE(executable != co.segments.end());
        const auto begin = executable->file_bytes.begin() + std::ptrdiff_t(kernel.code_address - executable->vaddr);
        CHECK(std::equal(kernel.code.begin(), kernel.code.end(), begin));
    }
}

// The same, each asking its LLVM tool about the one file at `path`.
void check_descriptor_against_objdump(const std::string& path, const Kernel& kernel, Target target) {
    check_descriptor_against_objdump(objdump_descriptor(path, kernel.metadata.symbol), path, kernel, target);
}
void check_metadata_against_readelf(const std::string& path, const CodeObject& co) {
    check_metadata_against_readelf(loader_test::readelf_kernels(path), path, co);
}
void check_segments_against_readelf(const std::string& path, const CodeObject& co) {
    check_segments_against_readelf(loader_test::readelf_load_segments(path), co);
}

struct ExpectedArg {
    const char* name;
    std::uint64_t offset, size;
    ValueKind kind;
    AddressSpace space;
};

void check_args(const KernelMetadata& md, const std::vector<ExpectedArg>& expected) {
    REQUIRE(md.args.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO(md.name << " argument " << i);
        CHECK(md.args[i].name == expected[i].name);
        CHECK(md.args[i].offset == expected[i].offset);
        CHECK(md.args[i].size == expected[i].size);
        CHECK(value_kind_name(md.args[i].value_kind) == std::string(value_kind_name(expected[i].kind)));
        CHECK(md.args[i].address_space == expected[i].space);
    }
}

}  // namespace

TEST_CASE("two kernels, every target, code object v4 and v5: exact descriptor, metadata and code", "[loader]") {
    for (const std::string& processor : processors) {
        for (int version : {4, 5}) {
            const std::string name = "two_kernels_" + processor + "_v" + std::to_string(version);
            const std::string path =
                loader_test::assemble(name, loader_test::two_kernels_source(processor, version), processor, version);
            INFO(path);
            const CodeObject co = load_code_object(path);
            const Target target = *target_from_name(processor);

            CHECK(co.source == path);
            CHECK(co.target.processor == target);
            CHECK(co.target.str() == processor);  // no feature forced on or off
            CHECK(co.target.xnack == FeatureSetting::any);
            CHECK(co.target.sramecc == (processor == "gfx900" ? FeatureSetting::unsupported : FeatureSetting::any));
            CHECK(co.abi_version == unsigned(version));
            CHECK(co.metadata_version_major == 1);
            CHECK(co.metadata_version_minor == (version == 4 ? 1u : 2u));
            CHECK(co.warnings.empty());
            REQUIRE(co.kernels.size() == 2);

            const Kernel& wide = co.kernel("wide");
            const KernelDescriptor& w = wide.descriptor;
            CHECK(w.group_segment_fixed_size == 12288);
            CHECK(w.private_segment_fixed_size == 64);
            CHECK(w.kernarg_size == 48);
            CHECK(w.allocated_vgprs == (unified(processor) ? 56u : 40u));
            CHECK(w.arch_vgprs == 40);
            CHECK(w.acc_vgprs == (unified(processor) ? 16u : processor == "gfx908" ? 40u : 0u));
            CHECK(w.accum_offset == (unified(processor) ? 40u : 0u));
            CHECK(w.allocated_sgprs == 48);  // 40 + XNACK_MASK, in blocks of 8
            CHECK(w.float_mode.round_32 == FloatRoundMode::plus_infinity);
            CHECK(w.float_mode.round_16_64 == FloatRoundMode::minus_infinity);
            CHECK(w.float_mode.denorm_32 == FloatDenormMode::flush_none);
            CHECK(w.float_mode.denorm_16_64 == FloatDenormMode::flush_dst);
            CHECK_FALSE(w.float_mode.dx10_clamp);
            CHECK_FALSE(w.float_mode.ieee_mode);
            CHECK(w.exceptions == 0x04);  // fp_ieee_div_zero
            CHECK(w.user_sgprs.private_segment_buffer == !architected_scratch(processor));
            CHECK(w.user_sgprs.flat_scratch_init == !architected_scratch(processor));
            CHECK(w.user_sgprs.dispatch_ptr);
            CHECK(w.user_sgprs.queue_ptr);
            CHECK(w.user_sgprs.kernarg_segment_ptr);
            CHECK(w.user_sgprs.dispatch_id);
            CHECK(w.user_sgprs.private_segment_size);
            CHECK(w.user_sgpr_count == (architected_scratch(processor) ? 9u : 15u));
            CHECK(w.system_sgprs.count() == 5);
            CHECK(w.enable_vgpr_workitem_id == 2);
            CHECK(w.workitem_ids_packed == unified(processor));
            CHECK(wide.code.size() == 20);
            CHECK(wide.code_size_from_symbol);
            // s_load_dwordx2 s[0:1], s[6:7], 0x0 = C0060003 00000000
            CHECK(std::vector<std::uint8_t>(wide.code.begin(), wide.code.begin() + 8) ==
                  std::vector<std::uint8_t>{0x03, 0x00, 0x06, 0xc0, 0x00, 0x00, 0x00, 0x00});

            const KernelMetadata& wm = wide.metadata;
            CHECK(wm.symbol == "wide.kd");
            CHECK(wm.kernarg_segment_size == 48);
            CHECK(wm.kernarg_segment_align == 16);
            CHECK(wm.group_segment_fixed_size == 12288);
            CHECK(wm.private_segment_fixed_size == 64);
            CHECK(wm.sgpr_count == 40);
            CHECK(wm.vgpr_count == 37);
            CHECK(wm.agpr_count == (unified(processor) ? 16u : 0u));
            CHECK(wm.max_flat_workgroup_size == 512);
            check_args(wm, {{"out", 0, 8, ValueKind::global_buffer, AddressSpace::global},
                            {"scale", 8, 4, ValueKind::by_value, AddressSpace::none},
                            {"count", 16, 8, ValueKind::by_value, AddressSpace::none},
                            {"", 24, 8, ValueKind::hidden_global_offset_x, AddressSpace::none},
                            {"", 32, 4, ValueKind::hidden_block_count_x, AddressSpace::none},
                            {"", 36, 2, ValueKind::hidden_group_size_x, AddressSpace::none},
                            {"", 40, 8, ValueKind::hidden_printf_buffer, AddressSpace::global}});
            CHECK(wm.args[0].type_name == "float*");
            CHECK(wm.args[0].is_restrict);
            CHECK(wm.args[1].type_name == "float");

            const Kernel& narrow = co.kernel("narrow");
            const KernelDescriptor& n = narrow.descriptor;
            CHECK(n.group_segment_fixed_size == 0);
            CHECK(n.user_sgpr_count == 2);
            CHECK(n.user_sgprs.count() == 2);
            CHECK(n.user_sgprs.kernarg_segment_ptr);
            CHECK(n.system_sgprs.workgroup_id_x);
            CHECK(n.system_sgprs.count() == 1);
            CHECK(n.enable_vgpr_workitem_id == 0);
            CHECK(n.allocated_vgprs == (unified(processor) ? 8u : 4u));
            CHECK(n.arch_vgprs == 4);
            CHECK(n.allocated_sgprs == 8);
            CHECK(n.float_mode.round_32 == FloatRoundMode::near_even);
            CHECK(n.float_mode.denorm_32 == FloatDenormMode::flush_src_dst);
            CHECK(n.float_mode.denorm_16_64 == FloatDenormMode::flush_none);
            CHECK(n.float_mode.dx10_clamp);
            CHECK(n.float_mode.ieee_mode);
            // s_nop 0; s_endpgm
            CHECK(narrow.code == std::vector<std::uint8_t>{0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x81, 0xbf});
            CHECK(narrow.metadata.args.empty());
            CHECK(narrow.metadata.max_flat_workgroup_size == 64);

            for (const Kernel& kernel : co.kernels) {
                check_descriptor_against_objdump(path, kernel, target);
                check_code_against_objdump(path, kernel, processor, kernel.name);
            }
            check_metadata_against_readelf(path, co);
            check_segments_against_readelf(path, co);

            // From memory: the same, named "<memory>".
            const std::vector<std::uint8_t> bytes = loader_test::read_bytes(path);
            const CodeObject from_memory = load_code_object(bytes.data(), bytes.size());
            CHECK(from_memory.source == "<memory>");
            CHECK(from_memory.kernels.size() == 2);
            CHECK(from_memory.kernel("wide").code == wide.code);
            CHECK(from_memory.kernel("narrow").descriptor.compute_pgm_rsrc1 == n.compute_pgm_rsrc1);
        }
    }
}

TEST_CASE("target features come from e_flags", "[loader]") {
    struct Case {
        const char* mcpu;
        const char* processor;
        FeatureSetting xnack, sramecc;
        const char* id;
    };
    const Case cases[] = {
        {"gfx90a:xnack+:sramecc-", "gfx90a", FeatureSetting::on, FeatureSetting::off, "gfx90a:sramecc-:xnack+"},
        {"gfx906:xnack-", "gfx906", FeatureSetting::off, FeatureSetting::any, "gfx906:xnack-"},
        {"gfx908:sramecc+", "gfx908", FeatureSetting::any, FeatureSetting::on, "gfx908:sramecc+"},
        {"gfx900:xnack+", "gfx900", FeatureSetting::on, FeatureSetting::unsupported, "gfx900:xnack+"},
    };
    for (const Case& c : cases) {
        const std::string source = loader_test::two_kernels_source(c.processor, 4);
        const std::string path = loader_test::assemble(std::string("features_") + c.processor, source, c.mcpu, 4);
        const CodeObject co = load_code_object(path);
        INFO(c.mcpu);
        CHECK(co.target.processor == *target_from_name(c.processor));
        CHECK(co.target.xnack == c.xnack);
        CHECK(co.target.sramecc == c.sramecc);
        CHECK(co.target.str() == c.id);
        // xnack+ reserves XNACK_MASK, xnack- does not: 40 -> 48 or 40 SGPRs.
        CHECK(co.kernel("wide").descriptor.allocated_sgprs == (c.xnack == FeatureSetting::off ? 40u : 48u));
        check_descriptor_against_objdump(path, co.kernel("wide"), co.target.processor);
    }
}

namespace {

void check_hip_object(const std::string& path, const CodeObject& co) {
    CHECK(co.target.processor == Target::gfx906);
    REQUIRE(co.kernels.size() == 2);
    for (const Kernel& kernel : co.kernels) {
        check_descriptor_against_objdump(path, kernel, Target::gfx906);
        check_code_against_objdump(path, kernel, "gfx906", kernel.name);
        CHECK(kernel.code_size_from_symbol);
        CHECK(kernel.metadata.max_flat_workgroup_size == 1024);
        for (const KernelArgument& arg : kernel.metadata.args) CHECK(arg.name.empty());  // hipcc names none
    }
    check_metadata_against_readelf(path, co);
    check_segments_against_readelf(path, co);
    const Kernel& reduce = co.kernel("_Z6reducePKfPf");
    CHECK(reduce.descriptor.group_segment_fixed_size == 1024);
    CHECK(reduce.metadata.group_segment_fixed_size == 1024);
    CHECK(co.warnings.empty());
}

}  // namespace

TEST_CASE("hipcc code object v4: hidden arguments, LDS, no argument names", "[loader][hipcc]") {
    const std::string path = loader_test::hipcc("hip_v4", loader_test::hip_source, 4);
    const CodeObject co = load_code_object(path);
    CHECK(co.abi_version == 4);
    CHECK(co.metadata_version_minor == 1);
    check_hip_object(path, co);
    const Kernel& kernel = co.kernel("scaled_size");
    CHECK(kernel.metadata.kernarg_segment_size == 72);
    CHECK(kernel.descriptor.kernarg_size == 72);
    // blockDim comes from the dispatch packet in v4.
    CHECK(kernel.descriptor.user_sgprs.dispatch_ptr);
    check_args(kernel.metadata, {{"", 0, 8, ValueKind::global_buffer, AddressSpace::global},
                                 {"", 8, 4, ValueKind::by_value, AddressSpace::none},
                                 {"", 16, 8, ValueKind::hidden_global_offset_x, AddressSpace::none},
                                 {"", 24, 8, ValueKind::hidden_global_offset_y, AddressSpace::none},
                                 {"", 32, 8, ValueKind::hidden_global_offset_z, AddressSpace::none},
                                 {"", 40, 8, ValueKind::hidden_hostcall_buffer, AddressSpace::global},
                                 {"", 48, 8, ValueKind::hidden_none, AddressSpace::global},
                                 {"", 56, 8, ValueKind::hidden_none, AddressSpace::global},
                                 {"", 64, 8, ValueKind::hidden_multigrid_sync_arg, AddressSpace::global}});
}

TEST_CASE("hipcc code object v5: the v5 hidden arguments", "[loader][hipcc]") {
    const std::string path = loader_test::hipcc("hip_v5", loader_test::hip_source, 5);
    const CodeObject co = load_code_object(path);
    CHECK(co.abi_version == 5);
    CHECK(co.metadata_version_minor == 2);
    check_hip_object(path, co);
    const Kernel& kernel = co.kernel("scaled_size");
    CHECK(kernel.metadata.kernarg_segment_size == 272);  // 16 + 256 bytes of v5 implicit arguments
    const AddressSpace none = AddressSpace::none, global = AddressSpace::global;
    check_args(kernel.metadata, {{"", 0, 8, ValueKind::global_buffer, global},
                                 {"", 8, 4, ValueKind::by_value, none},
                                 {"", 16, 4, ValueKind::hidden_block_count_x, none},
                                 {"", 20, 4, ValueKind::hidden_block_count_y, none},
                                 {"", 24, 4, ValueKind::hidden_block_count_z, none},
                                 {"", 28, 2, ValueKind::hidden_group_size_x, none},
                                 {"", 30, 2, ValueKind::hidden_group_size_y, none},
                                 {"", 32, 2, ValueKind::hidden_group_size_z, none},
                                 {"", 34, 2, ValueKind::hidden_remainder_x, none},
                                 {"", 36, 2, ValueKind::hidden_remainder_y, none},
                                 {"", 38, 2, ValueKind::hidden_remainder_z, none},
                                 {"", 56, 8, ValueKind::hidden_global_offset_x, none},
                                 {"", 64, 8, ValueKind::hidden_global_offset_y, none},
                                 {"", 72, 8, ValueKind::hidden_global_offset_z, none},
                                 {"", 80, 2, ValueKind::hidden_grid_dims, none},
                                 {"", 96, 8, ValueKind::hidden_hostcall_buffer, global},
                                 {"", 104, 8, ValueKind::hidden_multigrid_sync_arg, global},
                                 {"", 112, 8, ValueKind::hidden_heap_v1, global},
                                 {"", 216, 8, ValueKind::hidden_queue_ptr, global}});
}

TEST_CASE("the dppgemm kernel objects load and agree with LLVM", "[loader][kernels]") {
    namespace support = dppgemm::test_support;
    if (support::code_object_dir().empty())
        support::skip_test("this build has no kernel code objects (DPPGEMM_BUILD_KERNELS=OFF)");
    const std::filesystem::path dir = support::code_object_dir();
    std::size_t checked = 0;
    for (const std::string& processor : processors) {
        const std::filesystem::path folder = dir / processor;
        if (!std::filesystem::is_directory(folder)) continue;
        // The LLVM tools are asked about the NN layout of each variant only
        // (the layouts differ in code, not in descriptor or metadata shape),
        // each tool once for all of a processor's files.
        std::vector<std::string> nn_paths;
        std::vector<CodeObject> nn_objects;
        for (const auto& entry : std::filesystem::directory_iterator(folder)) {
            if (entry.path().extension() != ".co") continue;
            const std::string path = entry.path().string();
            CodeObject co = load_code_object(path);
            INFO(path);
            CHECK(co.target.processor == *target_from_name(processor));
            REQUIRE(co.kernels.size() == 1);
            CHECK(co.kernels[0].name == entry.path().stem().string());
            ++checked;
            if (path.find("_NN.co") == std::string::npos) continue;
            nn_paths.push_back(path);
            nn_objects.push_back(std::move(co));
        }
        if (nn_paths.empty()) continue;
        // Each object's .rodata holds its descriptor and nothing else.
        const std::vector<std::string> descriptors =
            support::run_on_files(support::llvm19().objdump + " -D -j .rodata", nn_paths, support::objdump_header);
        const std::vector<std::string> notes =
            support::run_on_files(support::llvm15().readelf + " --notes", nn_paths, support::readelf_header);
        const std::vector<std::string> segments =
            support::run_on_files(support::llvm15().readelf + " -l --wide", nn_paths, support::readelf_header);
        for (std::size_t i = 0; i < nn_paths.size(); ++i) {
            const CodeObject& co = nn_objects[i];
            check_descriptor_against_objdump(loader_test::parse_objdump_descriptor(descriptors[i]), nn_paths[i],
                                             co.kernels[0], co.target.processor);
            check_metadata_against_readelf(loader_test::parse_readelf_kernels(notes[i]), nn_paths[i], co);
            check_segments_against_readelf(loader_test::parse_readelf_load_segments(segments[i]), co);
        }
    }
    INFO("no kernel code objects under " << dir << " (build dppgemm_code_object_files first)");
    CHECK(checked > 0);
}
