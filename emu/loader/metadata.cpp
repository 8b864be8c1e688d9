#include "emu/loader/metadata.hpp"

#include <msgpack.hpp>

#include <algorithm>
#include <set>

#include "emu/loader/error.hpp"
#include "emu/loader/target.hpp"

namespace dppgemm::emu {
namespace {

struct ValueKindName {
    ValueKind kind;
    const char* name;
};

constexpr ValueKindName value_kind_names[] = {
    {ValueKind::by_value, "by_value"},
    {ValueKind::global_buffer, "global_buffer"},
    {ValueKind::dynamic_shared_pointer, "dynamic_shared_pointer"},
    {ValueKind::sampler, "sampler"},
    {ValueKind::image, "image"},
    {ValueKind::pipe, "pipe"},
    {ValueKind::queue, "queue"},
    {ValueKind::hidden_global_offset_x, "hidden_global_offset_x"},
    {ValueKind::hidden_global_offset_y, "hidden_global_offset_y"},
    {ValueKind::hidden_global_offset_z, "hidden_global_offset_z"},
    {ValueKind::hidden_none, "hidden_none"},
    {ValueKind::hidden_printf_buffer, "hidden_printf_buffer"},
    {ValueKind::hidden_hostcall_buffer, "hidden_hostcall_buffer"},
    {ValueKind::hidden_default_queue, "hidden_default_queue"},
    {ValueKind::hidden_completion_action, "hidden_completion_action"},
    {ValueKind::hidden_multigrid_sync_arg, "hidden_multigrid_sync_arg"},
    {ValueKind::hidden_block_count_x, "hidden_block_count_x"},
    {ValueKind::hidden_block_count_y, "hidden_block_count_y"},
    {ValueKind::hidden_block_count_z, "hidden_block_count_z"},
    {ValueKind::hidden_group_size_x, "hidden_group_size_x"},
    {ValueKind::hidden_group_size_y, "hidden_group_size_y"},
    {ValueKind::hidden_group_size_z, "hidden_group_size_z"},
    {ValueKind::hidden_remainder_x, "hidden_remainder_x"},
    {ValueKind::hidden_remainder_y, "hidden_remainder_y"},
    {ValueKind::hidden_remainder_z, "hidden_remainder_z"},
    {ValueKind::hidden_grid_dims, "hidden_grid_dims"},
    {ValueKind::hidden_heap_v1, "hidden_heap_v1"},
    {ValueKind::hidden_dynamic_lds_size, "hidden_dynamic_lds_size"},
    {ValueKind::hidden_private_base, "hidden_private_base"},
    {ValueKind::hidden_shared_base, "hidden_shared_base"},
    {ValueKind::hidden_queue_ptr, "hidden_queue_ptr"},
};

struct AddressSpaceName {
    AddressSpace space;
    const char* name;
};

constexpr AddressSpaceName address_space_names[] = {
    {AddressSpace::private_, "private"}, {AddressSpace::global, "global"},   {AddressSpace::constant, "constant"},
    {AddressSpace::local, "local"},      {AddressSpace::generic, "generic"}, {AddressSpace::region, "region"},
};

// A msgpack object together with its key path, for error messages.
class Node {
public:
    Node(const msgpack::object& object, std::string path) : object_(object), path_(std::move(path)) {}

    const std::string& path() const { return path_; }

    [[noreturn]] void reject(const std::string& what) const {
        throw FormatError("metadata" + (path_.empty() ? "" : " " + path_) + ": " + what);
    }

    const char* type_name() const {
        switch (object_.type) {
        case msgpack::type::NIL: return "nil";
        case msgpack::type::BOOLEAN: return "boolean";
        case msgpack::type::POSITIVE_INTEGER: return "integer";
        case msgpack::type::NEGATIVE_INTEGER: return "negative integer";
        case msgpack::type::FLOAT32:
        case msgpack::type::FLOAT64: return "float";
        case msgpack::type::STR: return "string";
        case msgpack::type::BIN: return "binary";
        case msgpack::type::ARRAY: return "array";
        case msgpack::type::MAP: return "map";
        case msgpack::type::EXT: return "extension";
        }
        return "unknown";
    }

    void expect(msgpack::type::object_type type, const char* expected) const {
        if (object_.type != type) reject(std::string("expected ") + expected + ", found " + type_name());
    }

    std::uint64_t as_uint() const {
        expect(msgpack::type::POSITIVE_INTEGER, "a non-negative integer");
        return object_.via.u64;
    }

    bool as_bool() const {
        expect(msgpack::type::BOOLEAN, "a boolean");
        return object_.via.boolean;
    }

    std::string as_string() const {
        expect(msgpack::type::STR, "a string");
        return std::string(object_.via.str.ptr, object_.via.str.size);
    }

    std::vector<Node> elements() const {
        expect(msgpack::type::ARRAY, "an array");
        std::vector<Node> nodes;
        for (std::uint32_t i = 0; i < object_.via.array.size; ++i)
            nodes.emplace_back(object_.via.array.ptr[i], path_ + "[" + std::to_string(i) + "]");
        return nodes;
    }

    // Value under a string key of a map; rejects non-string or duplicate keys.
    std::optional<Node> find(const char* key) const {
        expect(msgpack::type::MAP, "a map");
        std::optional<Node> found;
        for (std::uint32_t i = 0; i < object_.via.map.size; ++i) {
            const msgpack::object_kv& entry = object_.via.map.ptr[i];
            if (entry.key.type != msgpack::type::STR) reject("map key is not a string");
            const std::string name(entry.key.via.str.ptr, entry.key.via.str.size);
            if (name != key) continue;
            if (found) reject(std::string("duplicate key ") + key);
            // Kernel keys start with a dot already: amdhsa.kernels[0].name.
            found.emplace(entry.val, path_.empty() || name[0] == '.' ? path_ + name : path_ + "." + name);
        }
        return found;
    }

    Node at(const char* key) const {
        std::optional<Node> value = find(key);
        if (!value) reject(std::string("missing required key ") + key);
        return *value;
    }

private:
    const msgpack::object& object_;
    std::string path_;
};

std::uint64_t optional_uint(const Node& map, const char* key) {
    std::optional<Node> value = map.find(key);
    return value ? value->as_uint() : 0;
}

bool optional_bool(const Node& map, const char* key) {
    std::optional<Node> value = map.find(key);
    return value ? value->as_bool() : false;
}

std::string optional_string(const Node& map, const char* key) {
    std::optional<Node> value = map.find(key);
    return value ? value->as_string() : std::string();
}

bool is_power_of_two(std::uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

KernelArgument parse_argument(const Node& node, std::uint64_t kernarg_segment_size) {
    KernelArgument arg;
    arg.name = optional_string(node, ".name");
    arg.type_name = optional_string(node, ".type_name");
    arg.offset = node.at(".offset").as_uint();
    arg.size = node.at(".size").as_uint();

    const Node kind = node.at(".value_kind");
    const std::string kind_name = kind.as_string();
    std::optional<ValueKind> value_kind = value_kind_from_name(kind_name);
    if (!value_kind) kind.reject("unknown value kind '" + kind_name + "'");
    arg.value_kind = *value_kind;

    if (std::optional<Node> space = node.find(".address_space")) {
        const std::string space_name = space->as_string();
        auto row = std::find_if(std::begin(address_space_names), std::end(address_space_names),
                                [&](const AddressSpaceName& r) { return space_name == r.name; });
        if (row == std::end(address_space_names)) space->reject("unknown address space '" + space_name + "'");
        arg.address_space = row->space;
    }
    if (std::optional<Node> align = node.find(".pointee_align")) {
        arg.pointee_align = align->as_uint();
        if (!is_power_of_two(*arg.pointee_align))
            align->reject("pointee alignment " + std::to_string(*arg.pointee_align) + " is not a power of two");
    }
    arg.is_const = optional_bool(node, ".is_const");
    arg.is_restrict = optional_bool(node, ".is_restrict");
    arg.is_volatile = optional_bool(node, ".is_volatile");

    if (arg.offset > kernarg_segment_size || arg.size > kernarg_segment_size - arg.offset)
        node.reject("argument at offset " + std::to_string(arg.offset) + " of size " + std::to_string(arg.size) +
                    " ends past the kernarg segment of " + std::to_string(kernarg_segment_size) + " bytes");
    return arg;
}

KernelMetadata parse_kernel(const Node& node) {
    KernelMetadata kernel;
    kernel.name = node.at(".name").as_string();
    kernel.symbol = node.at(".symbol").as_string();
    if (kernel.name.empty()) node.at(".name").reject("empty kernel name");
    kernel.kernarg_segment_size = node.at(".kernarg_segment_size").as_uint();
    kernel.kernarg_segment_align = node.at(".kernarg_segment_align").as_uint();
    kernel.group_segment_fixed_size = node.at(".group_segment_fixed_size").as_uint();
    kernel.private_segment_fixed_size = node.at(".private_segment_fixed_size").as_uint();
    kernel.wavefront_size = node.at(".wavefront_size").as_uint();
    kernel.sgpr_count = node.at(".sgpr_count").as_uint();
    kernel.vgpr_count = node.at(".vgpr_count").as_uint();
    kernel.max_flat_workgroup_size = node.at(".max_flat_workgroup_size").as_uint();
    kernel.agpr_count = optional_uint(node, ".agpr_count");
    kernel.sgpr_spill_count = optional_uint(node, ".sgpr_spill_count");
    kernel.vgpr_spill_count = optional_uint(node, ".vgpr_spill_count");
    kernel.uses_dynamic_stack = optional_bool(node, ".uses_dynamic_stack");

    if (!is_power_of_two(kernel.kernarg_segment_align))
        node.at(".kernarg_segment_align")
            .reject("alignment " + std::to_string(kernel.kernarg_segment_align) + " is not a power of two");
    if (kernel.wavefront_size != 64)
        node.at(".wavefront_size")
            .reject("wavefront size " + std::to_string(kernel.wavefront_size) + "; gfx9 runs wave64 only");
    if (kernel.max_flat_workgroup_size == 0 || kernel.max_flat_workgroup_size > 1024)
        node.at(".max_flat_workgroup_size")
            .reject("workgroup size " + std::to_string(kernel.max_flat_workgroup_size) + " is not in 1..1024");
    // The code object's target is checked against its own limit at launch.
    if (kernel.group_segment_fixed_size > largest_lds_bytes())
        node.at(".group_segment_fixed_size")
            .reject(std::to_string(kernel.group_segment_fixed_size) + " bytes of LDS, more than " +
                    std::to_string(largest_lds_bytes()));

    if (std::optional<Node> args = node.find(".args"))
        for (const Node& arg : args->elements())
            kernel.args.push_back(parse_argument(arg, kernel.kernarg_segment_size));
    return kernel;
}

}  // namespace

const char* value_kind_name(ValueKind kind) {
    for (const ValueKindName& row : value_kind_names)
        if (row.kind == kind) return row.name;
    return "?";
}

std::optional<ValueKind> value_kind_from_name(const std::string& name) {
    for (const ValueKindName& row : value_kind_names)
        if (name == row.name) return row.kind;
    return std::nullopt;
}

bool is_hidden(ValueKind kind) { return std::string(value_kind_name(kind)).rfind("hidden_", 0) == 0; }

const char* address_space_name(AddressSpace space) {
    for (const AddressSpaceName& row : address_space_names)
        if (row.space == space) return row.name;
    return "";
}

Metadata parse_metadata(const std::uint8_t* bytes, std::size_t size) {
    // Every array or map element takes at least one byte, so no honest blob
    // declares more elements than it has bytes; the limits stop a corrupted
    // length from making msgpack allocate gigabytes before it runs out of input.
    const std::size_t max_elements = std::min<std::size_t>(size, 0xffffffffu);
    const msgpack::unpack_limit limits(max_elements, max_elements, size, size, size, 32);
    msgpack::object_handle handle;
    std::size_t consumed = 0;
    try {
        handle = msgpack::unpack(reinterpret_cast<const char*>(bytes), size, consumed, nullptr, nullptr, limits);
    } catch (const std::exception& error) {
        throw FormatError(std::string("metadata is not valid msgpack (") + error.what() + ")");
    }
    if (consumed != size)
        throw FormatError("metadata has " + std::to_string(size - consumed) + " trailing bytes after the msgpack map");

    const Node root(handle.get(), "");
    root.expect(msgpack::type::MAP, "a map at the top level");
    Metadata metadata;
    const std::vector<Node> version = root.at("amdhsa.version").elements();
    if (version.size() != 2)
        root.at("amdhsa.version")
            .reject("expected [major, minor], found " + std::to_string(version.size()) + " elements");
    const std::uint64_t major = version[0].as_uint(), minor = version[1].as_uint();
    if (major != 1 || minor > 0xffff)
        root.at("amdhsa.version").reject("unsupported version " + std::to_string(major) + "." + std::to_string(minor));
    metadata.version_major = static_cast<unsigned>(major);
    metadata.version_minor = static_cast<unsigned>(minor);
    metadata.target = optional_string(root, "amdhsa.target");

    std::set<std::string> names;
    for (const Node& kernel : root.at("amdhsa.kernels").elements()) {
        metadata.kernels.push_back(parse_kernel(kernel));
        if (!names.insert(metadata.kernels.back().name).second)
            kernel.reject("duplicate kernel name '" + metadata.kernels.back().name + "'");
    }
    return metadata;
}

}  // namespace dppgemm::emu
