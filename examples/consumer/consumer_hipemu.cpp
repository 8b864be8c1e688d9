// Links the installed libdppgemm-hipemu (dppgemm::hipemu) as a HIP program
// would: one emulated device, an embedded dppgemm kernel loaded as a module.
// Prints one line.
#include <dppgemm/code_objects.h>
#include <hip/hip_runtime_api.h>

#include <cstdio>

int main() {
    int count = 0;
    hipDeviceProp_t props;
    hipModule_t module = nullptr;
    hipFunction_t function = nullptr;
    const dppgemm_code_object* co = dppgemm_find_code_object("gfx906", "dpp2", "NN");
    const bool ok = hipGetDeviceCount(&count) == hipSuccess && count == 1 &&
                    hipGetDeviceProperties(&props, 0) == hipSuccess && co &&
                    hipModuleLoadData(&module, co->data) == hipSuccess &&
                    hipModuleGetFunction(&function, module, co->kernel_name) == hipSuccess;
    std::printf("consumer-hipemu: %s, %s %s\n", ok ? props.gcnArchName : "?", co ? co->kernel_name : "?",
                ok ? "loaded" : "NOT loaded");
    return ok ? 0 : 1;
}
