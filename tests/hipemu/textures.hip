// Texture objects as HIP's texture samples use them: a 1-D fetch from linear
// memory (tex1Dfetch, which hipcc compiles to buffer_load_format_*), and a
// 2-D array read with linear filtering and clamp addressing at
// unnormalized coordinates (tex2D: image_sample_lz), and pitched 2-D memory
// read with point filtering and wrap addressing at normalized coordinates. The expected values are
// computed here from the filter's formula (docs/textures.md): texel-space
// coordinates in 8 fractional bits, the four texels around (x - 0.5, y - 0.5)
// blended by the fractions.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#define PROGRAM "textures"
#include "hip_check.h"

__global__ void fetch_1d(hipTextureObject_t texture, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(texture, i);
}

__global__ void fetch_1d_uchar4(hipTextureObject_t texture, float4* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float4>(texture, i);
}

__global__ void sample_2d(hipTextureObject_t texture, const float2* at, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(texture, at[i].x, at[i].y);
}

namespace {

float fixed8(float x) { return std::nearbyint(x * 256.0f) / 256.0f; }

// Bilinear filtering with clamp-to-edge addressing, unnormalized coordinates.
float bilinear(const std::vector<float>& image, int width, int height, float x, float y) {
    const float us = fixed8(x) - 0.5f, ts = fixed8(y) - 0.5f;
    const int x0 = int(std::floor(us)), y0 = int(std::floor(ts));
    const float a = us - float(x0), b = ts - float(y0);
    auto texel = [&](int i, int j) {
        i = std::min(std::max(i, 0), width - 1);
        j = std::min(std::max(j, 0), height - 1);
        return image[j * width + i];
    };
    const float top = (1.0f - a) * texel(x0, y0) + a * texel(x0 + 1, y0);
    const float bottom = (1.0f - a) * texel(x0, y0 + 1) + a * texel(x0 + 1, y0 + 1);
    return (1.0f - b) * top + b * bottom;
}

int check_fetch_1d() {
    const int n = 300;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = 0.25f * float(i) - 17.0f;
    float *data = nullptr, *out = nullptr;
    CHECK(hipMalloc(&data, n * sizeof(float)));
    CHECK(hipMalloc(&out, n * sizeof(float)));
    CHECK(hipMemcpy(data, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
    hipResourceDesc resource{};
    resource.resType = hipResourceTypeLinear;
    resource.res.linear.devPtr = data;
    resource.res.linear.desc = hipCreateChannelDesc<float>();
    resource.res.linear.sizeInBytes = n * sizeof(float);
    hipTextureDesc description{};
    description.readMode = hipReadModeElementType;
    hipTextureObject_t texture = nullptr;
    CHECK(hipCreateTextureObject(&texture, &resource, &description, nullptr));
    hipResourceDesc back{};
    CHECK(hipGetTextureObjectResourceDesc(&back, texture));
    if (back.resType != hipResourceTypeLinear || back.res.linear.devPtr != data) {
        std::printf("textures: hipGetTextureObjectResourceDesc returned another resource\n");
        return 1;
    }
    fetch_1d<<<(n + 127) / 128, 128>>>(texture, out, n);
    std::vector<float> result(n);
    CHECK(hipMemcpy(result.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (std::memcmp(&result[i], &host[i], sizeof(float)) != 0) {
            std::printf("textures: tex1Dfetch(%d) = %g, expected %g\n", i, result[i], host[i]);
            return 1;
        }
    CHECK(hipDestroyTextureObject(texture));
    CHECK(hipFree(data));
    CHECK(hipFree(out));
    return 0;
}

// uchar4 read as normalized floats: each byte / 255.
int check_fetch_1d_uchar4() {
    const int n = 70;
    std::vector<unsigned char> host(4 * n);
    for (int i = 0; i < 4 * n; ++i) host[i] = static_cast<unsigned char>(i * 37 + 11);
    unsigned char* data = nullptr;
    float4* out = nullptr;
    CHECK(hipMalloc(&data, host.size()));
    CHECK(hipMalloc(&out, n * sizeof(float4)));
    CHECK(hipMemcpy(data, host.data(), host.size(), hipMemcpyHostToDevice));
    hipResourceDesc resource{};
    resource.resType = hipResourceTypeLinear;
    resource.res.linear.devPtr = data;
    // Spelled out: ROCm 5.2's hipCreateChannelDesc<uchar4>() says Signed.
    resource.res.linear.desc = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
    resource.res.linear.sizeInBytes = host.size();
    hipTextureDesc description{};
    description.readMode = hipReadModeNormalizedFloat;
    hipTextureObject_t texture = nullptr;
    CHECK(hipCreateTextureObject(&texture, &resource, &description, nullptr));
    fetch_1d_uchar4<<<1, 128>>>(texture, out, n);
    std::vector<float4> result(n);
    CHECK(hipMemcpy(result.data(), out, n * sizeof(float4), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        const float got[4] = {result[i].x, result[i].y, result[i].z, result[i].w};
        for (int c = 0; c < 4; ++c) {
            const float expected = float(double(host[4 * i + c]) / 255.0);
            if (std::memcmp(&got[c], &expected, sizeof(float)) != 0) {
                std::printf("textures: uchar4 tex1Dfetch(%d).%d = %.9g, expected %.9g\n", i, c, got[c], expected);
                return 1;
            }
        }
    }
    CHECK(hipDestroyTextureObject(texture));
    CHECK(hipFree(data));
    CHECK(hipFree(out));
    return 0;
}

int check_sample_2d() {
    const int width = 13, height = 7, n = 256;
    std::vector<float> image(width * height);
    for (int j = 0; j < height; ++j)
        for (int i = 0; i < width; ++i) image[j * width + i] = float((i * 7 + j * 11) % 23) - 4.5f;
    hipChannelFormatDesc channel = hipCreateChannelDesc<float>();
    hipArray* array = nullptr;
    CHECK(hipMallocArray(&array, &channel, width, height));
    CHECK(hipMemcpy2DToArray(array, 0, 0, image.data(), width * sizeof(float), width * sizeof(float), height,
                             hipMemcpyHostToDevice));
    std::vector<float> back(width * height);
    CHECK(hipMemcpy2DFromArray(back.data(), width * sizeof(float), array, 0, 0, width * sizeof(float), height,
                               hipMemcpyDeviceToHost));
    if (back != image) {
        std::printf("textures: hipMemcpy2DFromArray returned other values\n");
        return 1;
    }
    hipResourceDesc resource{};
    resource.resType = hipResourceTypeArray;
    resource.res.array.array = array;
    hipTextureDesc description{};
    description.addressMode[0] = hipAddressModeClamp;
    description.addressMode[1] = hipAddressModeClamp;
    description.filterMode = hipFilterModeLinear;
    description.readMode = hipReadModeElementType;
    description.normalizedCoords = 0;
    hipTextureObject_t texture = nullptr;
    CHECK(hipCreateTextureObject(&texture, &resource, &description, nullptr));
    // Points inside, between texels, on texel centres and beyond every edge.
    std::vector<float2> at(n);
    for (int k = 0; k < n; ++k)
        at[k] = make_float2(-2.0f + 0.0731f * float(k % 64) * 3.0f, -1.5f + 0.37f * float(k / 8));
    at[0] = make_float2(0.5f, 0.5f);
    at[1] = make_float2(12.5f, 6.5f);
    at[2] = make_float2(3.0f, 2.0f);
    float2* at_device = nullptr;
    float* out = nullptr;
    CHECK(hipMalloc(&at_device, n * sizeof(float2)));
    CHECK(hipMalloc(&out, n * sizeof(float)));
    CHECK(hipMemcpy(at_device, at.data(), n * sizeof(float2), hipMemcpyHostToDevice));
    sample_2d<<<n / 64, 64>>>(texture, at_device, out, n);
    std::vector<float> result(n);
    CHECK(hipMemcpy(result.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int k = 0; k < n; ++k) {
        const float expected = bilinear(image, width, height, at[k].x, at[k].y);
        if (std::memcmp(&result[k], &expected, sizeof(float)) != 0) {
            std::printf("textures: tex2D(%g, %g) = %.9g, expected %.9g\n", at[k].x, at[k].y, result[k], expected);
            return 1;
        }
    }
    CHECK(hipDestroyTextureObject(texture));
    CHECK(hipFreeArray(array));
    CHECK(hipFree(at_device));
    CHECK(hipFree(out));
    return 0;
}

// Pitched 2-D memory, point filtering, wrap addressing, normalized
// coordinates: the texel floor(x * width) (f32 product) wrapped into the
// image, as ockl's point-filter adjustment and the texture unit pick it.
int check_point_wrap_pitch2d() {
    const int width = 5, height = 3, n = 128;
    std::vector<float> image(width * height);
    for (int i = 0; i < width * height; ++i) image[i] = 1.5f * float(i) + 0.25f;
    float* data = nullptr;
    size_t pitch = 0;
    CHECK(hipMallocPitch(reinterpret_cast<void**>(&data), &pitch, width * sizeof(float), height));
    CHECK(hipMemcpy2D(data, pitch, image.data(), width * sizeof(float), width * sizeof(float), height,
                      hipMemcpyHostToDevice));
    hipResourceDesc resource{};
    resource.resType = hipResourceTypePitch2D;
    resource.res.pitch2D.devPtr = data;
    resource.res.pitch2D.desc = hipCreateChannelDesc<float>();
    resource.res.pitch2D.width = width;
    resource.res.pitch2D.height = height;
    resource.res.pitch2D.pitchInBytes = pitch;
    hipTextureDesc description{};
    description.addressMode[0] = hipAddressModeWrap;
    description.addressMode[1] = hipAddressModeWrap;
    description.filterMode = hipFilterModePoint;
    description.readMode = hipReadModeElementType;
    description.normalizedCoords = 1;
    hipTextureObject_t texture = nullptr;
    CHECK(hipCreateTextureObject(&texture, &resource, &description, nullptr));
    std::vector<float2> at(n);
    for (int k = 0; k < n; ++k) at[k] = make_float2(-1.7f + 0.0419f * float(k), 2.3f - 0.0383f * float(k));
    float2* at_device = nullptr;
    float* out = nullptr;
    CHECK(hipMalloc(&at_device, n * sizeof(float2)));
    CHECK(hipMalloc(&out, n * sizeof(float)));
    CHECK(hipMemcpy(at_device, at.data(), n * sizeof(float2), hipMemcpyHostToDevice));
    sample_2d<<<n / 64, 64>>>(texture, at_device, out, n);
    std::vector<float> result(n);
    CHECK(hipMemcpy(result.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int k = 0; k < n; ++k) {
        const int i = int(std::floor(at[k].x * float(width))), j = int(std::floor(at[k].y * float(height)));
        const float expected = image[((j % height) + height) % height * width + ((i % width) + width) % width];
        if (std::memcmp(&result[k], &expected, sizeof(float)) != 0) {
            std::printf("textures: wrapped tex2D(%g, %g) = %.9g, expected %.9g\n", at[k].x, at[k].y, result[k],
                        expected);
            return 1;
        }
    }
    CHECK(hipDestroyTextureObject(texture));
    CHECK(hipFree(data));
    CHECK(hipFree(at_device));
    CHECK(hipFree(out));
    return 0;
}

}  // namespace

int main() {
    int image_support = 0;
    CHECK(hipDeviceGetAttribute(&image_support, hipDeviceAttributeImageSupport, 0));
    if (image_support != 1) {
        std::printf("textures: hipDeviceAttributeImageSupport = %d\n", image_support);
        return 1;
    }
    if (check_fetch_1d() || check_fetch_1d_uchar4() || check_sample_2d() || check_point_wrap_pitch2d()) return 1;
    std::printf("textures: correct\n");
    return 0;
}
