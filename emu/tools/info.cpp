// `dppgemm-emu info CODE_OBJECT`: what the loader found, for people.

#include <iomanip>
#include <ostream>
#include <sstream>

#include "emu/loader/code_object.hpp"
#include "emu/tools/commands.hpp"
#include "emu/tools/launch.hpp"
#include "emu/tools/open.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu::tools {
namespace {

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
    return text.empty() ? "none" : text;
}

std::string user_sgprs(const UserSgprs& sgprs) {
    std::vector<std::string> enabled;
    if (sgprs.private_segment_buffer) enabled.push_back("private_segment_buffer");
    if (sgprs.dispatch_ptr) enabled.push_back("dispatch_ptr");
    if (sgprs.queue_ptr) enabled.push_back("queue_ptr");
    if (sgprs.kernarg_segment_ptr) enabled.push_back("kernarg_segment_ptr");
    if (sgprs.dispatch_id) enabled.push_back("dispatch_id");
    if (sgprs.flat_scratch_init) enabled.push_back("flat_scratch_init");
    if (sgprs.private_segment_size) enabled.push_back("private_segment_size");
    return joined(enabled);
}

std::string system_sgprs(const SystemSgprs& sgprs) {
    std::vector<std::string> enabled;
    if (sgprs.workgroup_id_x) enabled.push_back("workgroup_id_x");
    if (sgprs.workgroup_id_y) enabled.push_back("workgroup_id_y");
    if (sgprs.workgroup_id_z) enabled.push_back("workgroup_id_z");
    if (sgprs.workgroup_info) enabled.push_back("workgroup_info");
    if (sgprs.private_segment_wave_offset) enabled.push_back("private_segment_wave_offset");
    return joined(enabled);
}

std::string workitem_ids(const KernelDescriptor& kd) {
    static const char* const dims[] = {"x", "x y", "x y z"};
    static const char* const unpacked[] = {"v0", "v0 v1", "v0 v1 v2"};
    return std::string(dims[kd.enable_vgpr_workitem_id]) + " in " +
           (kd.workitem_ids_packed ? "v0 (packed, 10 bits each)" : unpacked[kd.enable_vgpr_workitem_id]);
}

void print_kernel(const Kernel& kernel, std::ostream& out) {
    const KernelDescriptor& kd = kernel.descriptor;
    const KernelMetadata& md = kernel.metadata;
    out << "kernel " << kernel.name << "\n";
    out << "  code: " << hex(kernel.code_address) << ", " << kernel.code.size() << " bytes"
        << (kernel.code_size_from_symbol ? "" : " (to the end of the section)") << "\n";
    out << "  descriptor: " << hex(kernel.descriptor_address) << " (" << md.symbol << ")\n";
    out << "  LDS: " << kd.group_segment_fixed_size << " bytes; scratch: " << kd.private_segment_fixed_size
        << " bytes per work-item; kernarg: " << md.kernarg_segment_size << " bytes, align " << md.kernarg_segment_align
        << "\n";
    out << "  VGPRs: " << kd.allocated_vgprs << " allocated (" << kd.arch_vgprs << " arch";
    if (kd.acc_vgprs) out << ", " << kd.acc_vgprs << " acc";
    if (kd.accum_offset) out << ", accum_offset " << kd.accum_offset;
    out << "), metadata vgpr_count " << md.vgpr_count << ", agpr_count " << md.agpr_count << "\n";
    out << "  SGPRs: " << kd.allocated_sgprs << " allocated, metadata sgpr_count " << md.sgpr_count << "\n";
    out << "  user SGPRs (" << kd.user_sgpr_count << "): " << user_sgprs(kd.user_sgprs) << "\n";
    out << "  system SGPRs: " << system_sgprs(kd.system_sgprs) << "\n";
    out << "  workitem ids: " << workitem_ids(kd) << "\n";
    const FloatMode& fm = kd.float_mode;
    out << "  float mode: round " << round_mode_name(fm.round_32) << "/" << round_mode_name(fm.round_16_64)
        << ", denorm " << denorm_mode_name(fm.denorm_32) << "/" << denorm_mode_name(fm.denorm_16_64) << " (f32/f16-f64)"
        << (fm.dx10_clamp ? ", dx10_clamp" : "") << (fm.ieee_mode ? ", ieee" : "") << "\n";
    out << "  workgroup: at most " << md.max_flat_workgroup_size << " work-items, wave" << md.wavefront_size << "\n";
    out << "  arguments (" << md.args.size() << "):\n";
    for (std::size_t i = 0; i < md.args.size(); ++i) {
        const KernelArgument& arg = md.args[i];
        out << "    " << std::setw(2) << i << "  offset " << std::setw(3) << arg.offset << "  size " << std::setw(2)
            << arg.size << "  " << value_kind_name(arg.value_kind);
        if (arg.address_space != AddressSpace::none) out << " " << address_space_name(arg.address_space);
        if (!arg.name.empty()) out << "  " << arg.name;
        if (!arg.type_name.empty()) out << " (" << arg.type_name << ")";
        out << "\n";
    }
}

}  // namespace

int info_command(const InfoOptions& options, std::ostream& out, std::ostream& err) {
    CodeObject co;
    try {
        co = open_code_object(options.code_object, options.arch);
    } catch (const CodeObjectError& error) {
        err << "dppgemm-emu info: " << error.what() << "\n";
        return exit_usage;
    } catch (const UsageError& error) {
        err << "dppgemm-emu info: " << error.what() << "\n";
        return exit_usage;
    } catch (const std::exception& error) {  // never an abort on a malformed code object
        err << "dppgemm-emu info: " << options.code_object << ": " << error.what() << "\n";
        return exit_usage;
    }
    out << "code object: " << co.source << "\n";
    out << "target: " << co.target.str() << " (xnack " << feature_setting_name(co.target.xnack) << ", sramecc "
        << feature_setting_name(co.target.sramecc) << ")\n";
    out << "code object version: " << co.abi_version << " (metadata " << co.metadata_version_major << "."
        << co.metadata_version_minor << ")\n";
    out << "kernels: " << co.kernels.size() << "\n";
    if (!co.variables.empty()) {
        out << "variables:";
        for (const Variable& v : co.variables)
            out << " " << v.name << " (" << hex(v.address) << ", " << v.size << " bytes)";
        out << "\n";
    }
    for (const Kernel& kernel : co.kernels) {
        out << "\n";
        print_kernel(kernel, out);
    }
    for (const std::string& warning : co.warnings) out << "warning: " << warning << "\n";
    return exit_ok;
}

}  // namespace dppgemm::emu::tools
