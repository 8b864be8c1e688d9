// Runtime compilation as the ROCm examples do it: a kernel's source compiled
// by hiprtc for the device's gcnArchName, its code loaded with
// hipModuleLoadData and launched with hipModuleLaunchKernel; a template
// kernel found through hiprtcAddNameExpression/hiprtcGetLoweredName; a header
// passed by name; a source that does not compile gives
// HIPRTC_ERROR_COMPILATION and a log naming the error.
#define PROGRAM "runtime_compilation"
#include "hip_check.h"
#include <hip/hiprtc.h>
#include <string>
#include <vector>

#define RTC(call)                                                                                          \
  do {                                                                                                     \
    hiprtcResult r_ = (call);                                                                              \
    if (r_ != HIPRTC_SUCCESS) {                                                                            \
      std::printf("runtime_compilation: line %d: %s failed: %s\n", __LINE__, #call, hiprtcGetErrorString(r_)); \
      std::exit(1);                                                                                        \
    }                                                                                                      \
  } while (0)

static const char* source = R"(
#include "scale.h"
extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template <typename T, int Factor>
__global__ void scale(T* data, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * T(Factor) + T(OFFSET);
}
)";
static const char* header = "#define OFFSET 3\n";
static const char* header_name = "scale.h";

int main() {
  hipDeviceProp_t props;
  CHECK(hipGetDeviceProperties(&props, 0));
  hiprtcProgram prog;
  RTC(hiprtcCreateProgram(&prog, source, "saxpy.cu", 1, &header, &header_name));
  RTC(hiprtcAddNameExpression(prog, "scale<double, 4>"));
  std::string arch = std::string("--gpu-architecture=") + props.gcnArchName;
  const char* options[] = {arch.c_str(), "-O2"};
  RTC(hiprtcCompileProgram(prog, 2, options));
  size_t code_size = 0;
  RTC(hiprtcGetCodeSize(prog, &code_size));
  std::vector<char> code(code_size);
  RTC(hiprtcGetCode(prog, code.data()));
  const char* lowered = nullptr;
  RTC(hiprtcGetLoweredName(prog, "scale<double, 4>", &lowered));
  std::string scale_name = lowered;
  RTC(hiprtcDestroyProgram(&prog));

  hipModule_t module;
  hipFunction_t saxpy, scale;
  CHECK(hipModuleLoadData(&module, code.data()));
  CHECK(hipModuleGetFunction(&saxpy, module, "saxpy"));
  CHECK(hipModuleGetFunction(&scale, module, scale_name.c_str()));

  const unsigned n = 1000;
  std::vector<float> x(n), y(n);
  for (unsigned i = 0; i < n; ++i) { x[i] = i * 0.5f; y[i] = 1.0f + i % 3; }
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 2.5f;
  unsigned count = n;
  void* args[] = {&a, &dx, &dy, &count};
  CHECK(hipModuleLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  std::vector<float> r(n);
  CHECK(hipMemcpy(r.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i)
    if (r[i] != a * x[i] + y[i]) { std::printf("runtime_compilation: saxpy[%u] = %g, expected %g\n", i, r[i], a * x[i] + y[i]); return 1; }

  std::vector<double> d(n);
  for (unsigned i = 0; i < n; ++i) d[i] = i * 0.25 - 7.0;
  double* dd;
  CHECK(hipMalloc(&dd, n * sizeof(double)));
  CHECK(hipMemcpy(dd, d.data(), n * sizeof(double), hipMemcpyHostToDevice));
  void* scale_args[] = {&dd, &count};
  CHECK(hipModuleLaunchKernel(scale, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, scale_args, nullptr));
  std::vector<double> rd(n);
  CHECK(hipMemcpy(rd.data(), dd, n * sizeof(double), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i)
    if (rd[i] != d[i] * 4.0 + 3.0) { std::printf("runtime_compilation: scale[%u] = %g, expected %g\n", i, rd[i], d[i] * 4.0 + 3.0); return 1; }
  CHECK(hipModuleUnload(module));

  // A source that does not compile: the error and its log.
  hiprtcProgram broken;
  RTC(hiprtcCreateProgram(&broken, "__global__ void k(int* p) { p[0] = undeclared_name; }", "broken.cu", 0, nullptr, nullptr));
  if (hiprtcCompileProgram(broken, 0, nullptr) != HIPRTC_ERROR_COMPILATION) { std::printf("runtime_compilation: a broken source compiled\n"); return 1; }
  size_t log_size = 0;
  RTC(hiprtcGetProgramLogSize(broken, &log_size));
  std::string log(log_size, '\0');
  RTC(hiprtcGetProgramLog(broken, &log[0]));
  if (log.find("undeclared_name") == std::string::npos) { std::printf("runtime_compilation: the log does not name the error:\n%s\n", log.c_str()); return 1; }
  RTC(hiprtcDestroyProgram(&broken));
  std::printf("runtime_compilation: correct\n");
  return 0;
}
