#pragma once
// The emulated device memory (address space): every global, flat, buffer and scalar
// memory access a kernel makes goes through this allocation table. Device
// addresses are fake 64-bit numbers, never host pointers: allocations live at
// and above 2^47 (non-canonical on x86-64 and 48-bit aarch64, so no host
// pointer can ever be equal to one), 64 KiB aligned, with at least 64 KiB of
// unmapped gap after each one so that small overruns fault instead of landing
// in a neighbour. An access that is not entirely inside one allocation is a
// MemoryFault naming the address; it never touches host memory.
//
//   DeviceMemory memory;
//   std::uint64_t a = memory.allocate(n * 4, "A");   // zeroed
//   memory.write(a, host_a.data(), n * 4);
//   ... launch ...
//   memory.read(c, host_c.data(), n * 4);
//
// allocate()/release() must not run concurrently with a dispatch; the
// dispatch only translates (read-only table) and writes allocation bytes.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dppgemm::emu {

class MemoryFault : public std::runtime_error {
public:
    MemoryFault(std::uint64_t address, std::uint64_t size, const std::string& what);
    std::uint64_t address() const { return address_; }
    std::uint64_t size() const { return size_; }

private:
    std::uint64_t address_, size_;
};

// Frees an allocation's bytes unless they belong to someone else (map_host).
struct AllocationBytesFree {
    bool owned = true;
    void operator()(std::uint8_t* p) const {
        if (owned) std::free(p);
    }
};

struct Allocation {
    std::uint64_t address = 0;
    std::uint64_t size = 0;
    std::string name;
    // calloc'd: a large allocation costs no host memory until touched, and
    // one the host cannot hold fails cleanly instead of being zeroed page by
    // page into the out-of-memory killer. Host memory mapped with map_host()
    // belongs to its owner and is not freed.
    using Free = AllocationBytesFree;
    std::unique_ptr<std::uint8_t, Free> bytes;

    bool contains(std::uint64_t addr, std::uint64_t bytes_needed) const {
        // Written without address + size so that nothing can wrap.
        return addr - address < size && bytes_needed <= size - (addr - address);
    }
    std::uint8_t* at(std::uint64_t addr) const { return bytes.get() + (addr - address); }
};

class DeviceMemory {
public:
    static constexpr std::uint64_t first_address = std::uint64_t{1} << 47;
    static constexpr std::uint64_t alignment = 64 * 1024;
    static constexpr std::uint64_t guard_gap = 64 * 1024;

    DeviceMemory() = default;
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    // A zeroed allocation of `size` bytes (size 0 allowed: it gets an address
    // that no access can hit). Addresses are never reused.
    std::uint64_t allocate(std::uint64_t size, std::string name = {});
    // Makes host memory [host, host + size) visible to kernels at its own
    // address (below first_address, so never mistaken for an allocate()d
    // range), as host-mapped and managed memory are on a GPU. The bytes stay
    // the caller's; release() unmaps. Throws MemoryFault when the range is
    // empty, reaches first_address or overlaps a mapping.
    void map_host(void* host, std::uint64_t size, std::string name = {});
    // Throws MemoryFault when `address` is not the start of an allocation.
    void release(std::uint64_t address);

    // Host copies; throw MemoryFault unless [address, address + size) lies in
    // one allocation.
    void write(std::uint64_t address, const void* data, std::uint64_t size);
    void read(std::uint64_t address, void* out, std::uint64_t size) const;

    // The allocation containing [address, address + size), or nullptr.
    const Allocation* find(std::uint64_t address, std::uint64_t size = 1) const;
    // Host bytes of [address, address + size), or nullptr when not inside one allocation.
    std::uint8_t* translate(std::uint64_t address, std::uint64_t size) const {
        const Allocation* a = find(address, size);
        return a ? a->at(address) : nullptr;
    }

    const std::vector<std::unique_ptr<Allocation>>& allocations() const { return allocations_; }

private:
    std::vector<std::unique_ptr<Allocation>> allocations_;  // sorted by address
    std::uint64_t next_address_ = first_address;
};

// The summary of 64 lanes' 32-bit buffer offsets the direct buffer path
// (sem_memory.cpp) works from: their minimum, maximum and OR, the OR of those
// of lanes 0, 4, 8, ..., 60, and bit 4q of runs_of_four set when lanes 4q ..
// 4q+3 read four consecutive dwords (offsets v, v + 4, v + 8, v + 12), as
// contiguous lanes of a GEMM operand tile do.
struct LaneOffsetSpread {
    std::uint32_t low = ~0u, high = 0, bits = 0;
    std::uint32_t run_start_bits = 0;
    std::uint64_t runs_of_four = 0;
};

// What is remembered of one instruction's accesses by one wave (Translator::memo).
struct AccessMemo {
    const void* instruction = nullptr;
    const void* wave = nullptr;
    bool has_start = false, has_offsets = false;
    std::uint64_t start = 0;  // the lowest address the last access reached
    // The allocation the last access hit (Translator::allocation_of), or
    // nullptr: a load's next run most often reads the same one, while the
    // translator's own cache swaps between A and B on every load of a GEMM.
    const Allocation* allocation = nullptr;
    // The lane offsets of the last access that gave them, and their spread.
    LaneOffsetSpread spread;
    alignas(32) std::uint32_t offsets[64];

    // How far `start` lies from the last access's start, recording it as the
    // latest; 0 when there is none. A loop's load usually moves by the same
    // step each trip, so start + step is where it will likely read next: a
    // guess for host prefetches, never for results.
    std::uint64_t step_to(std::uint64_t to) {
        const std::uint64_t step = has_start ? to - start : 0;
        start = to;
        has_start = true;
        return step;
    }
};

// A per-workgroup translation cache: most lanes of an instruction hit the
// allocation the previous lane hit, and a GEMM kernel's loads alternate
// between two allocations (A and B), so the last two allocations hit are
// kept. With one, 16,448 of the 18,432 buffer loads and stores of the
// 256^3 dpp0_32 launch went to the allocation table (DeviceMemory::find,
// 0.94 M host instructions of 105 M; callgrind).
class Translator {
public:
    explicit Translator(const DeviceMemory& memory) : memory_(&memory) {}
    std::uint8_t* translate(std::uint64_t address, std::uint64_t size) {
        const Allocation* found = allocation_of(address, size);
        return found ? found->at(address) : nullptr;
    }
    // The allocation holding [address, address + size), or nullptr.
    const Allocation* allocation_of(std::uint64_t address, std::uint64_t size) {
        if (last_ && last_->contains(address, size)) return last_;
        if (previous_ && previous_->contains(address, size)) {
            std::swap(last_, previous_);
            return last_;
        }
        const Allocation* found = memory_->find(address, size);
        if (found) previous_ = last_, last_ = found;
        return found;
    }
    // Host bytes of [address, address + size) when the allocation the last
    // translation hit holds them; nullptr otherwise (no table lookup, and the
    // cache stays as it is).
    std::uint8_t* cached(std::uint64_t address, std::uint64_t size) const {
        return last_ && last_->contains(address, size) ? last_->at(address) : nullptr;
    }
    const DeviceMemory& memory() const { return *memory_; }

    // The memo of the accesses of `instruction` by `wave`, empty the first
    // time the pair asks (and after another pair that hashes alike asked):
    // a hint, never a result, unless its caller checks what it remembers.
    AccessMemo& memo(const void* instruction, const void* wave) {
        const auto a = reinterpret_cast<std::uintptr_t>(instruction), b = reinterpret_cast<std::uintptr_t>(wave);
        // Multiplicative hashing: waves lie a page apart, instructions a few dozen bytes.
        AccessMemo& m = memos_[((a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full)) >> 58];
        if (m.instruction != instruction || m.wave != wave) {
            m.instruction = instruction;
            m.wave = wave;
            m.has_start = m.has_offsets = false;
            m.allocation = nullptr;
        }
        return m;
    }
    // memo(instruction, wave).step_to(start).
    std::uint64_t step_since_last(const void* instruction, const void* wave, std::uint64_t start) {
        return memo(instruction, wave).step_to(start);
    }

private:
    const DeviceMemory* memory_;
    const Allocation* last_ = nullptr;      // the allocation the last translation hit
    const Allocation* previous_ = nullptr;  // the one hit before it
    std::array<AccessMemo, 64> memos_{};
};

// The swizzled buffer offset (ISA "Swizzled Buffer Addressing"): records are
// interleaved `index_stride` at a time in `element_size`-byte pieces, so that
// consecutive indices (the lanes of a scratch access) at one offset touch
// adjacent elements. Applied per dword: a lane's dwordx4 is four elements.
inline std::uint64_t swizzled_offset(std::uint64_t index, std::uint64_t offset, std::uint32_t stride,
                                     std::uint32_t index_stride, std::uint32_t element_size) {
    const std::uint64_t index_msb = index / index_stride, index_lsb = index % index_stride;
    const std::uint64_t offset_msb = offset / element_size, offset_lsb = offset % element_size;
    return (index_msb * stride + offset_msb * element_size) * index_stride + index_lsb * element_size + offset_lsb;
}

// A buffer resource descriptor (V#, four SGPRs) as gfx9 reads it.
struct BufferResource {
    std::uint64_t base = 0;    // 48 bits
    std::uint32_t stride = 0;  // 14 bits, bytes
    std::uint32_t num_records = 0;
    bool swizzle = false;
    bool add_tid = false;
    std::uint32_t index_stride = 8;  // swizzled: 8, 16, 32 or 64 records interleaved (word3 bits 21:22)
    // gfx9 has no ELEMENT_SIZE field (gfx8 had it in word3 bits 19:20, now
    // USER_VM): swizzled elements are 4 bytes.
    static constexpr std::uint32_t element_size = 4;

    static BufferResource from_sgprs(const std::uint32_t words[4]) {
        BufferResource r;
        r.base = words[0] | (std::uint64_t(words[1] & 0xffffu) << 32);
        r.stride = (words[1] >> 16) & 0x3fffu;
        r.swizzle = (words[1] >> 31) & 1u;
        r.num_records = words[2];
        r.index_stride = 8u << ((words[3] >> 21) & 3u);
        r.add_tid = (words[3] >> 23) & 1u;
        return r;
    }

    // The range check, as the ISA guides give it (Vega and MI100/MI200 ISA,
    // "Buffer Instructions > Range Checking"; the gfx906 and gfx90a guides
    // agree):
    //   Private (scratch) buffer, AddTID==1 && IdxEn==0: no range checking.
    //   Raw buffer, AddTID==0 && SwizzleEn==0 && IdxEn==0: out of range if
    //       (InstOffset + (OffEN ? vgpr_offset : 0)) >= NumRecords.
    //   Structured buffer, AddTID==0 && Stride!=0 && IdxEn==1: out of range
    //       if Index(vgpr) >= NumRecords.
    //   "Load/store-DWORD-x{2,3,4} range-check per component": dword i of a
    //   lane's access is checked at its own offset (offset + 4*i), so a
    //   dwordx4 straddling the end returns its in-range dwords and zeros for
    //   the rest. Out-of-range reads return 0, out-of-range writes are dropped.
    // The SGPR soffset is not part of the check, and neither is the stride
    // (a raw buffer may have one). The guide leaves two combinations open;
    // they follow the rule of their IdxEn: swizzled without IdxEn checks the
    // offset as a raw buffer, AddTID with IdxEn the index (lane id included).
    // In-range accesses still go through the allocation table and fault outside it.
    bool in_range(bool idxen, std::uint64_t index, std::uint64_t offset) const {
        return idxen ? index < num_records : offset < num_records;
    }
    // The private (scratch) buffer form, add_tid without idxen, is not range
    // checked at all; the allocation table still faults.
    bool range_checked(bool idxen) const { return !add_tid || idxen; }
    std::uint64_t address(std::uint64_t index, std::uint64_t offset, std::uint32_t soffset) const {
        if (swizzle) return base + soffset + swizzled_offset(index, offset, stride, index_stride, element_size);
        return base + std::uint64_t(stride) * index + offset + soffset;
    }
};

}  // namespace dppgemm::emu
