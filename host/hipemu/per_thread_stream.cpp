// The *_spt entry points, which programs built with
// -fgpu-default-stream=per-thread call instead of the plain ones: the same
// work, with stream 0 meaning the calling thread's default stream. Here every
// stream runs its work when it is enqueued, so the per-thread default stream
// is the null stream and each forwards to its plain form. (ROCm 5.2 exports
// them with C linkage; the array forms are not provided.)
#include <hip/hip_runtime_api.h>

extern "C" {

hipError_t hipMemcpy_spt(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind) {
    return hipMemcpy(dst, src, sizeBytes, kind);
}
hipError_t hipMemcpyToSymbol_spt(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                 hipMemcpyKind kind) {
    return hipMemcpyToSymbol(symbol, src, sizeBytes, offset, kind);
}
hipError_t hipMemcpyFromSymbol_spt(void* dst, const void* symbol, size_t sizeBytes, size_t offset, hipMemcpyKind kind) {
    return hipMemcpyFromSymbol(dst, symbol, sizeBytes, offset, kind);
}
hipError_t hipMemcpy2D_spt(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                           hipMemcpyKind kind) {
    return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
hipError_t hipMemset_spt(void* dst, int value, size_t sizeBytes) { return hipMemset(dst, value, sizeBytes); }
hipError_t hipMemset2D_spt(void* dst, size_t pitch, int value, size_t width, size_t height) {
    return hipMemset2D(dst, pitch, value, width, height);
}
hipError_t hipMemcpy3D_spt(const struct hipMemcpy3DParms* p) { return hipMemcpy3D(p); }
hipError_t hipMemset3D_spt(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent) {
    return hipMemset3D(pitchedDevPtr, value, extent);
}
hipError_t hipMemcpyAsync_spt(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream) {
    return hipMemcpyAsync(dst, src, sizeBytes, kind, stream);
}
hipError_t hipStreamQuery_spt(hipStream_t stream) { return hipStreamQuery(stream); }
hipError_t hipStreamSynchronize_spt(hipStream_t stream) { return hipStreamSynchronize(stream); }
hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority) {
    return hipStreamGetPriority(stream, priority);
}
hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event, unsigned int flags) {
    return hipStreamWaitEvent(stream, event, flags);
}
hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags) { return hipStreamGetFlags(stream, flags); }
hipError_t hipLaunchCooperativeKernel_spt(const void* f, dim3 gridDim, dim3 blockDim, void** kernelParams,
                                          uint32_t sharedMemBytes, hipStream_t hStream) {
    return hipLaunchCooperativeKernel(f, gridDim, blockDim, kernelParams, sharedMemBytes, hStream);
}
hipError_t hipLaunchKernel_spt(const void* function_address, dim3 numBlocks, dim3 dimBlocks, void** args,
                               size_t sharedMemBytes, hipStream_t stream) {
    return hipLaunchKernel(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
}

}  // extern "C"
