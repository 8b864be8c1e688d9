// Arrays and texture objects. A hipTextureObject_t points to device memory
// holding what ROCm's device code reads (hip/texture_types.h, ockl's
// image.cl): 12 dwords of image descriptor (a T# in dwords 0..7, or for a
// linear resource a V# in dwords 0..3, which tex1Dfetch's
// buffer_load_format_* reads; dword 8 the channel data type, 9 the channel
// order, 10 the width in elements) and, at dword 12, the S# sampler. The
// descriptors are encoded with emu/exec/image_descriptors.hpp, the one
// definition the emulator decodes them with. An array is a hipArray (its
// ROCm 5.2 layout) whose `data` is device memory holding rows padded to the
// device's texture alignment.
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "emu/exec/image_descriptors.hpp"
#include "guard.hpp"
#include "runtime.hpp"

using dppgemm::hipemu::record;
using dppgemm::hipemu::Runtime;
namespace image = dppgemm::emu::image;

namespace {

Runtime& runtime() { return Runtime::instance(); }

constexpr std::size_t kTextureAlignment = 256;  // hipDeviceProp_t::textureAlignment (device.cpp)

std::mutex texture_mutex;
std::set<hipArray*> arrays;
struct TextureObject {
    hipResourceDesc resource;
    hipTextureDesc texture;
};
std::map<hipTextureObject_t, TextureObject> textures;

struct ChannelFormat {
    std::uint32_t data_format = 0, num_format = 0, texel_bytes = 0, components = 0;
};

// The T#/V# formats a channel description maps to; nothing for the shapes
// the hardware has no format for (three channels, mixed widths).
std::optional<ChannelFormat> channel_format(const hipChannelFormatDesc& d, bool normalized_read) {
    const int bits = d.x;
    const std::uint32_t components = (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
    if ((d.y && d.y != bits) || (d.z && d.z != bits) || (d.w && d.w != bits) || components == 3 || components == 0)
        return std::nullopt;
    static constexpr std::uint32_t formats[3][5] = {{0, image::data_8, image::data_8_8, 0, image::data_8_8_8_8},
                                                    {0, image::data_16, image::data_16_16, 0, image::data_16_16_16_16},
                                                    {0, image::data_32, image::data_32_32, 0, image::data_32_32_32_32}};
    const int row = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : -1;
    if (row < 0) return std::nullopt;
    ChannelFormat f;
    f.data_format = formats[row][components];
    f.components = components;
    f.texel_bytes = components * std::uint32_t(bits) / 8;
    switch (d.f) {
    case hipChannelFormatKindFloat:
        if (bits == 8) return std::nullopt;
        f.num_format = image::num_float;
        break;
    case hipChannelFormatKindSigned:
        f.num_format = normalized_read && bits < 32 ? image::num_snorm : image::num_sint;
        break;
    case hipChannelFormatKindUnsigned:
        f.num_format = normalized_read && bits < 32 ? image::num_unorm : image::num_uint;
        break;
    default: return std::nullopt;
    }
    return f;
}

std::size_t texel_bytes(const hipChannelFormatDesc& d) { return std::size_t(d.x + d.y + d.z + d.w) / 8; }

// Bytes per row of an array's device memory.
std::size_t array_pitch(const hipArray& a) {
    const std::size_t row = a.width * texel_bytes(a.desc);
    return (row + kTextureAlignment - 1) / kTextureAlignment * kTextureAlignment;
}
std::size_t array_rows(const hipArray& a) { return std::size_t(a.height ? a.height : 1) * (a.depth ? a.depth : 1); }

bool known_array(const hipArray* a) {
    std::lock_guard<std::mutex> lock(texture_mutex);
    return a && arrays.count(const_cast<hipArray*>(a));
}

hipError_t create_array(hipArray** out, const hipChannelFormatDesc* desc, std::size_t width, std::size_t height,
                        std::size_t depth, unsigned flags) {
    if (!out || !desc || width == 0 || !channel_format(*desc, false)) return hipErrorInvalidValue;
    if (flags & ~unsigned(hipArrayLayered)) return hipErrorNotSupported;
    auto* a = new hipArray{};
    a->desc = *desc;
    a->type = flags;
    a->width = unsigned(width);
    a->height = unsigned(height);
    a->depth = unsigned(depth);
    a->NumChannels = (desc->x > 0) + (desc->y > 0) + (desc->z > 0) + (desc->w > 0);
    a->textureType = flags & hipArrayLayered ? (height ? hipTextureType2DLayered : hipTextureType1DLayered)
                     : depth                 ? hipTextureType3D
                     : height                ? hipTextureType2D
                                             : hipTextureType1D;
    if (hipError_t e = runtime().allocate(&a->data, array_pitch(*a) * array_rows(*a)); e != hipSuccess) {
        delete a;
        return e;
    }
    std::lock_guard<std::mutex> lock(texture_mutex);
    arrays.insert(a);
    *out = a;
    return hipSuccess;
}

// Rows of `width` bytes between a pitched host or device region and an array.
hipError_t copy_rows(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                     std::size_t height, hipMemcpyKind kind) {
    for (std::size_t row = 0; row < height; ++row)
        if (hipError_t e = runtime().copy(static_cast<char*>(dst) + row * dpitch,
                                          static_cast<const char*>(src) + row * spitch, width, kind);
            e != hipSuccess)
            return e;
    return hipSuccess;
}

// Whether (wOffset bytes, hOffset rows) plus width x height bytes lies inside the array.
bool inside(const hipArray& a, std::size_t w_offset, std::size_t h_offset, std::size_t width, std::size_t height) {
    const std::size_t row_bytes = a.width * texel_bytes(a.desc);
    return w_offset <= row_bytes && width <= row_bytes - w_offset && h_offset <= array_rows(a) &&
           height <= array_rows(a) - h_offset;
}

char* array_at(const hipArray& a, std::size_t w_offset, std::size_t h_offset) {
    return static_cast<char*>(a.data) + h_offset * array_pitch(a) + w_offset;
}

std::uint32_t clamp_mode(hipTextureAddressMode mode) {
    switch (mode) {
    case hipAddressModeWrap: return image::clamp_wrap;
    case hipAddressModeClamp: return image::clamp_last_texel;
    case hipAddressModeMirror: return image::clamp_mirror;
    default: return image::clamp_border;
    }
}

hipError_t create_texture(hipTextureObject_t* out, const hipResourceDesc* res, const hipTextureDesc* tex) {
    if (!out || !res || !tex) return hipErrorInvalidValue;
    const bool normalized_read = tex->readMode == hipReadModeNormalizedFloat;
    std::uint32_t words[HIP_TEXTURE_OBJECT_SIZE_DWORD] = {};
    hipChannelFormatDesc channels{};
    std::uint32_t width = 0;
    if (res->resType == hipResourceTypeLinear) {
        channels = res->res.linear.desc;
        const auto f = channel_format(channels, normalized_read);
        if (!f || !res->res.linear.devPtr) return hipErrorInvalidValue;
        width = std::uint32_t(res->res.linear.sizeInBytes / f->texel_bytes);
        image::encode_buffer(reinterpret_cast<std::uintptr_t>(res->res.linear.devPtr), f->texel_bytes, width,
                             f->data_format, f->num_format, words);
    } else if (res->resType == hipResourceTypePitch2D || res->resType == hipResourceTypeArray) {
        image::ImageResource r;
        if (res->resType == hipResourceTypePitch2D) {
            const auto& p = res->res.pitch2D;
            channels = p.desc;
            const auto f = channel_format(channels, normalized_read);
            if (!f || !p.devPtr || p.width == 0 || p.height == 0) return hipErrorInvalidValue;
            const auto base = reinterpret_cast<std::uintptr_t>(p.devPtr);
            // The T# holds the base in units of 256 bytes and the pitch in texels.
            if (base % kTextureAlignment || p.pitchInBytes % f->texel_bytes ||
                p.pitchInBytes < p.width * f->texel_bytes)
                return hipErrorInvalidValue;
            r.base = base;
            r.width = std::uint32_t(p.width);
            r.height = std::uint32_t(p.height);
            r.pitch = std::uint32_t(p.pitchInBytes / f->texel_bytes);
            r.type = image::type_2d;
            r.data_format = f->data_format;
            r.num_format = f->num_format;
        } else {
            const hipArray* a = res->res.array.array;
            if (!known_array(a)) return hipErrorInvalidValue;
            channels = a->desc;
            const auto f = channel_format(channels, normalized_read);
            if (!f) return hipErrorInvalidValue;
            r.base = reinterpret_cast<std::uintptr_t>(a->data);
            r.width = a->width;
            r.height = a->height ? a->height : 1;
            r.depth = a->depth ? a->depth : 1;
            r.pitch = std::uint32_t(array_pitch(*a) / f->texel_bytes);
            const bool layered = a->type & hipArrayLayered;
            r.type = layered     ? (a->height ? image::type_2d_array : image::type_1d_array)
                     : a->depth  ? image::type_3d
                     : a->height ? image::type_2d
                                 : image::type_1d;
            if (layered && !a->height) r.depth = a->depth ? a->depth : 1;
            r.data_format = f->data_format;
            r.num_format = f->num_format;
        }
        width = r.width;
        image::encode_image(r, words);
    } else {
        return hipErrorNotSupported;  // mipmapped arrays
    }
    image::Sampler s;
    for (int i = 0; i < 3; ++i) s.clamp[i] = clamp_mode(tex->addressMode[i]);
    s.force_unnormalized = !tex->normalizedCoords;
    s.mag_filter = s.min_filter = tex->filterMode == hipFilterModeLinear ? image::filter_bilinear : image::filter_point;
    const float* b = tex->borderColor;
    if (b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0) s.border_color = image::border_transparent_black;
    else if (b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 1) s.border_color = image::border_opaque_black;
    else if (b[0] == 1 && b[1] == 1 && b[2] == 1 && b[3] == 1) s.border_color = image::border_opaque_white;
    else return hipErrorNotSupported;  // the border colour palette is not modelled
    image::encode_sampler(s, words + HIP_SAMPLER_OBJECT_OFFSET_DWORD);
    // ockl's queries: channel data type and order, width (image.cl: words 8, 9, 10).
    words[8] = std::uint32_t(channels.f);
    words[9] = (channels.x > 0) + (channels.y > 0) + (channels.z > 0) + (channels.w > 0);
    words[10] = width;
    void* device = nullptr;
    if (hipError_t e = runtime().allocate(&device, sizeof words); e != hipSuccess) return e;
    if (hipError_t e = runtime().copy(device, words, sizeof words, hipMemcpyHostToDevice); e != hipSuccess) {
        (void)runtime().release(device);  // the copy's error is the one to report
        return e;
    }
    *out = static_cast<hipTextureObject_t>(device);
    std::lock_guard<std::mutex> lock(texture_mutex);
    textures[*out] = {*res, *tex};
    return hipSuccess;
}

}  // namespace

extern "C" {

hipError_t hipMallocArray(hipArray** array, const hipChannelFormatDesc* desc, size_t width, size_t height,
                          unsigned int flags) {
    return dppgemm::hipemu::guarded(
        __func__, [&]() -> hipError_t { return record(create_array(array, desc, width, height, 0, flags)); });
}

hipError_t hipMalloc3DArray(hipArray** array, const hipChannelFormatDesc* desc, hipExtent extent, unsigned int flags) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        return record(create_array(array, desc, extent.width, extent.height, extent.depth, flags));
    });
}

hipError_t hipFreeArray(hipArray* array) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        {
            std::lock_guard<std::mutex> lock(texture_mutex);
            if (!arrays.erase(array)) return record(hipErrorInvalidValue);
        }
        hipError_t e = runtime().release(array->data);
        delete array;
        return record(e);
    });
}

hipError_t hipMemcpy2DToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                              size_t width, size_t height, hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!known_array(dst) || !src || spitch < width || !inside(*dst, wOffset, hOffset, width, height))
            return record(hipErrorInvalidValue);
        return record(copy_rows(array_at(*dst, wOffset, hOffset), array_pitch(*dst), src, spitch, width, height, kind));
    });
}

hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t width, size_t height, hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!known_array(src) || !dst || dpitch < width || !inside(*src, wOffset, hOffset, width, height))
            return record(hipErrorInvalidValue);
        return record(copy_rows(dst, dpitch, array_at(*src, wOffset, hOffset), array_pitch(*src), width, height, kind));
    });
}

// `count` bytes from (wOffset, hOffset) on, continuing on the following rows.
hipError_t hipMemcpyToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                            hipMemcpyKind kind) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!known_array(dst) || !src) return record(hipErrorInvalidValue);
        const std::size_t row_bytes = dst->width * texel_bytes(dst->desc);
        const char* from = static_cast<const char*>(src);
        while (count > 0) {
            if (!inside(*dst, wOffset, hOffset, 0, 1) || wOffset >= row_bytes) return record(hipErrorInvalidValue);
            const std::size_t n = std::min(count, row_bytes - wOffset);
            if (hipError_t e = runtime().copy(array_at(*dst, wOffset, hOffset), from, n, kind); e != hipSuccess)
                return record(e);
            from += n;
            count -= n;
            wOffset = 0;
            ++hOffset;
        }
        return hipSuccess;
    });
}

hipError_t hipCreateTextureObject(hipTextureObject_t* pTexObject, const hipResourceDesc* pResDesc,
                                  const hipTextureDesc* pTexDesc, const struct hipResourceViewDesc* pResViewDesc) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (pResViewDesc) return record(hipErrorNotSupported);
        return record(create_texture(pTexObject, pResDesc, pTexDesc));
    });
}

hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        if (!textureObject) return hipSuccess;
        {
            std::lock_guard<std::mutex> lock(texture_mutex);
            if (!textures.erase(textureObject)) return record(hipErrorInvalidValue);
        }
        return record(runtime().release(textureObject));
    });
}

hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* pResDesc, hipTextureObject_t textureObject) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        std::lock_guard<std::mutex> lock(texture_mutex);
        auto it = textures.find(textureObject);
        if (!pResDesc || it == textures.end()) return record(hipErrorInvalidValue);
        *pResDesc = it->second.resource;
        return hipSuccess;
    });
}

hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* pTexDesc, hipTextureObject_t textureObject) {
    return dppgemm::hipemu::guarded(__func__, [&]() -> hipError_t {
        std::lock_guard<std::mutex> lock(texture_mutex);
        auto it = textures.find(textureObject);
        if (!pTexDesc || it == textures.end()) return record(hipErrorInvalidValue);
        *pTexDesc = it->second.texture;
        return hipSuccess;
    });
}

}  // extern "C"
