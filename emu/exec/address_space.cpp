#include "emu/exec/address_space.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "emu/util.hpp"

namespace dppgemm::emu {

MemoryFault::MemoryFault(std::uint64_t address, std::uint64_t size, const std::string& what)
    : std::runtime_error(what + " at " + hex(address) + " (" + std::to_string(size) + " bytes)"),
      address_(address),
      size_(size) {}

std::uint64_t DeviceMemory::allocate(std::uint64_t size, std::string name) {
    if (size > (std::uint64_t{1} << 40)) throw MemoryFault(next_address_, size, "allocation too large");
    auto a = std::make_unique<Allocation>();
    a->address = next_address_;
    a->size = size;
    a->name = std::move(name);
    a->bytes.reset(static_cast<std::uint8_t*>(std::calloc(size ? size : 1, 1)));
    if (!a->bytes) throw MemoryFault(next_address_, size, "allocation too large for the host's memory");
    const std::uint64_t end = a->address + size + guard_gap;
    next_address_ = (end + alignment - 1) / alignment * alignment;
    const std::uint64_t address = a->address;
    allocations_.push_back(std::move(a));  // addresses only grow, host mappings lie below: stays sorted
    return address;
}

void DeviceMemory::map_host(void* host, std::uint64_t size, std::string name) {
    const auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(host));
    if (size == 0 || address == 0 || address >= first_address || size > first_address - address)
        throw MemoryFault(address, size, "host range cannot be mapped");
    auto at = std::upper_bound(allocations_.begin(), allocations_.end(), address,
                               [](std::uint64_t addr, const auto& a) { return addr < a->address; });
    const bool overlaps_previous =
        at != allocations_.begin() && address - (*std::prev(at))->address < (*std::prev(at))->size;
    const bool overlaps_next = at != allocations_.end() && (*at)->address - address < size;
    if (overlaps_previous || overlaps_next) throw MemoryFault(address, size, "host range is already mapped");
    auto a = std::make_unique<Allocation>();
    a->address = address;
    a->size = size;
    a->name = std::move(name);
    a->bytes =
        std::unique_ptr<std::uint8_t, Allocation::Free>(static_cast<std::uint8_t*>(host), Allocation::Free{false});
    allocations_.insert(at, std::move(a));
}

void DeviceMemory::release(std::uint64_t address) {
    auto it =
        std::find_if(allocations_.begin(), allocations_.end(), [&](const auto& a) { return a->address == address; });
    if (it == allocations_.end()) throw MemoryFault(address, 0, "release of an address that is not an allocation");
    allocations_.erase(it);
}

const Allocation* DeviceMemory::find(std::uint64_t address, std::uint64_t size) const {
    // Last allocation starting at or below address.
    auto it = std::upper_bound(allocations_.begin(), allocations_.end(), address,
                               [](std::uint64_t addr, const auto& a) { return addr < a->address; });
    if (it == allocations_.begin()) return nullptr;
    const Allocation* a = std::prev(it)->get();
    return a->contains(address, size) ? a : nullptr;
}

void DeviceMemory::write(std::uint64_t address, const void* data, std::uint64_t size) {
    if (size == 0) return;
    std::uint8_t* host = translate(address, size);
    if (!host) throw MemoryFault(address, size, "host write outside any allocation");
    std::memcpy(host, data, size);
}

void DeviceMemory::read(std::uint64_t address, void* out, std::uint64_t size) const {
    if (size == 0) return;
    const std::uint8_t* host = translate(address, size);
    if (!host) throw MemoryFault(address, size, "host read outside any allocation");
    std::memcpy(out, host, size);
}

}  // namespace dppgemm::emu
