#pragma once
// The cache-control facts of the AMDGPU memory model that the executor's
// random schedule (weak_memory.hpp) and the inter-workgroup checker
// (emu/check) both act on, from LLVM AMDGPUUsage's code sequences ("Memory
// Model GFX6-GFX9", "Memory Model GFX90A", "Memory Model GFX942"):
//
// - Agent-scope atomic loads bypass the CU's vector L1 with glc=1 on gfx9 and
//   gfx90a, with sc1=1 on gfx940/gfx942 (sc0 alone is work-group scope).
// - An acquire at agent scope invalidates the L1 with buffer_wbinvl1_vol
//   (gfx9, gfx90a; buffer_wbinvl1 invalidates it too) or buffer_inv sc1
//   (gfx940/gfx942; any buffer_inv is taken as one).
// - Atomic read-modify-writes always act at the L2, bypassing the L1.
// - Scalar loads go through the scalar cache, which the memory model keeps
//   for data that does not change during a dispatch ("Scalar memory
//   operations are only used to access memory that is proven to not change"):
//   no acquire sequence invalidates it; s_dcache_inv does, and glc bypasses it.

#include "emu/decode/inst.hpp"
#include "emu/loader/target.hpp"

namespace dppgemm::emu {

inline bool load_bypasses_l1(Target target, const Inst& inst) {
    return has(target, Feature::gfx940_insts) ? inst.sc1 : inst.glc;
}

inline bool scalar_load_bypasses_cache(const Inst& inst) { return inst.glc; }

inline bool invalidates_scalar_cache(Op op) { return op == Op::s_dcache_inv || op == Op::s_dcache_inv_vol; }

inline bool invalidates_l1(Op op) {
    return op == Op::buffer_wbinvl1 || op == Op::buffer_wbinvl1_vol || op == Op::buffer_inv;
}

}  // namespace dppgemm::emu
