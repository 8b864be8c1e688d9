#pragma once
// The resource descriptors image and typed buffer instructions read from
// SGPRs: the image resource (T#, 8 dwords), the sampler (S#, 4 dwords) and the
// buffer resource (V#, 4 dwords), as the "Vega" 7nm ISA guide (MI50) defines
// them in "Image Resource", "Image Sampler" and "Vector Memory Buffer
// Instructions: Buffer Resource"; field positions as AMD's register headers
// name them (Mesa's sid.h, SQ_IMG_RSRC_WORD0..7, SQ_IMG_SAMP_WORD0..3,
// SQ_BUF_RSRC_WORD0..3, GFX9 columns). One definition of each field: the
// executor decodes with these, the HIP runtime (hipemu) encodes with them.

#include <cstdint>

namespace dppgemm::emu::image {

constexpr std::uint32_t field(std::uint32_t word, int lo, int bits) { return (word >> lo) & ((1u << bits) - 1); }
constexpr std::uint32_t place(std::uint32_t value, int lo, int bits) { return (value & ((1u << bits) - 1)) << lo; }

// DATA_FORMAT (IMG_DATA_FORMAT / BUF_DATA_FORMAT, one numbering).
enum DataFormat : std::uint32_t {
    data_8 = 1,
    data_16 = 2,
    data_8_8 = 3,
    data_32 = 4,
    data_16_16 = 5,
    data_8_8_8_8 = 10,
    data_32_32 = 11,
    data_16_16_16_16 = 12,
    data_32_32_32 = 13,
    data_32_32_32_32 = 14,
};
// NUM_FORMAT (IMG_NUM_FORMAT / BUF_NUM_FORMAT).
enum NumFormat : std::uint32_t { num_unorm = 0, num_snorm = 1, num_uint = 4, num_sint = 5, num_float = 7 };

// T# TYPE (SQ_RSRC_IMG_*).
enum ImageType : std::uint32_t { type_1d = 8, type_2d = 9, type_3d = 10, type_1d_array = 12, type_2d_array = 13 };

struct ImageResource {
    std::uint64_t base = 0;  // bytes; 256-byte aligned (word0 holds address bits 39:8)
    std::uint32_t data_format = 0, num_format = 0;
    std::uint32_t width = 1, height = 1;  // texels
    std::uint32_t depth = 1;              // 3-D depth, or the array's slice count
    std::uint32_t pitch = 1;              // texels per row
    std::uint32_t type = type_2d;
    std::uint32_t sw_mode = 0;                             // 0: linear (SW_MODE, the only one emulated)
    std::uint32_t dst_sel = 4 | 5 << 3 | 6 << 6 | 7 << 9;  // DST_SEL_X..W: 4..7 = X..W, 0 = 0, 1 = 1
    std::uint32_t base_level = 0, last_level = 0;
};

inline ImageResource decode_image(const std::uint32_t w[8]) {
    ImageResource r;
    r.base = (std::uint64_t(w[0]) | std::uint64_t(field(w[1], 0, 8)) << 32) << 8;
    r.data_format = field(w[1], 20, 6);
    r.num_format = field(w[1], 26, 4);
    r.width = field(w[2], 0, 14) + 1;
    r.height = field(w[2], 14, 14) + 1;
    r.dst_sel = field(w[3], 0, 12);
    r.base_level = field(w[3], 12, 4);
    r.last_level = field(w[3], 16, 4);
    r.sw_mode = field(w[3], 20, 5);
    r.type = field(w[3], 28, 4);
    r.depth = field(w[4], 0, 13) + 1;
    r.pitch = field(w[4], 13, 16) + 1;
    return r;
}

// Words 0..7; word5's LAST_ARRAY (bits 25:13) also holds the last slice,
// which is where ROCm's device library reads an array's size.
inline void encode_image(const ImageResource& r, std::uint32_t w[8]) {
    for (int i = 0; i < 8; ++i) w[i] = 0;
    w[0] = std::uint32_t(r.base >> 8);
    w[1] = place(std::uint32_t(r.base >> 40), 0, 8) | place(r.data_format, 20, 6) | place(r.num_format, 26, 4);
    w[2] = place(r.width - 1, 0, 14) | place(r.height - 1, 14, 14);
    w[3] = place(r.dst_sel, 0, 12) | place(r.base_level, 12, 4) | place(r.last_level, 16, 4) | place(r.sw_mode, 20, 5) |
           place(r.type, 28, 4);
    w[4] = place(r.depth - 1, 0, 13) | place(r.pitch - 1, 13, 16);
    if (r.type == type_1d_array || r.type == type_2d_array) w[5] = place(r.depth - 1, 13, 13);
}

// S# CLAMP_X/Y/Z (SQ_TEX_CLAMP) and XY_MAG/MIN_FILTER (SQ_TEX_XY_FILTER).
enum Clamp : std::uint32_t {
    clamp_wrap = 0,
    clamp_mirror = 1,
    clamp_last_texel = 2,
    clamp_mirror_once_last_texel = 3,
    clamp_half_border = 4,
    clamp_mirror_once_half_border = 5,
    clamp_border = 6,
    clamp_mirror_once_border = 7,
};
enum Filter : std::uint32_t { filter_point = 0, filter_bilinear = 1 };
// BORDER_COLOR_TYPE (SQ_TEX_BORDER_COLOR).
enum BorderColor : std::uint32_t {
    border_transparent_black = 0,
    border_opaque_black = 1,
    border_opaque_white = 2,
    border_register = 3,
};

struct Sampler {
    std::uint32_t clamp[3] = {clamp_wrap, clamp_wrap, clamp_wrap};
    bool force_unnormalized = false;
    std::uint32_t mag_filter = filter_point, min_filter = filter_point;
    std::uint32_t z_filter = 0, mip_filter = 0;
    std::uint32_t border_color = border_transparent_black;
    std::uint32_t filter_mode = 0;  // 0: blend (the others: min/max reductions)
    std::uint32_t depth_compare = 0;
    std::uint32_t max_aniso = 0;
};

inline Sampler decode_sampler(const std::uint32_t w[4]) {
    Sampler s;
    for (int i = 0; i < 3; ++i) s.clamp[i] = field(w[0], 3 * i, 3);
    s.max_aniso = field(w[0], 9, 3);
    s.depth_compare = field(w[0], 12, 3);
    s.force_unnormalized = field(w[0], 15, 1);
    s.filter_mode = field(w[0], 29, 2);
    s.mag_filter = field(w[2], 20, 2);
    s.min_filter = field(w[2], 22, 2);
    s.z_filter = field(w[2], 24, 2);
    s.mip_filter = field(w[2], 26, 2);
    s.border_color = field(w[3], 30, 2);
    return s;
}

inline void encode_sampler(const Sampler& s, std::uint32_t w[4]) {
    w[0] = place(s.clamp[0], 0, 3) | place(s.clamp[1], 3, 3) | place(s.clamp[2], 6, 3) | place(s.max_aniso, 9, 3) |
           place(s.depth_compare, 12, 3) | place(s.force_unnormalized, 15, 1) | place(s.filter_mode, 29, 2);
    w[1] = 0;
    w[2] =
        place(s.mag_filter, 20, 2) | place(s.min_filter, 22, 2) | place(s.z_filter, 24, 2) | place(s.mip_filter, 26, 2);
    w[3] = place(s.border_color, 30, 2);
}

// V# for an indexed typed fetch (buffer_load_format_* idxen): base, stride
// (bytes per element), NUM_RECORDS (elements, as the stride is not 0),
// DST_SEL identity, NUM_FORMAT bits 14:12 and DATA_FORMAT bits 18:15.
inline void encode_buffer(std::uint64_t base, std::uint32_t stride, std::uint32_t records, std::uint32_t data_format,
                          std::uint32_t num_format, std::uint32_t w[4]) {
    w[0] = std::uint32_t(base);
    w[1] = place(std::uint32_t(base >> 32), 0, 16) | place(stride, 16, 14);
    w[2] = records;
    w[3] = place(4, 0, 3) | place(5, 3, 3) | place(6, 6, 3) | place(7, 9, 3) | place(num_format, 12, 3) |
           place(data_format, 15, 4);
}

}  // namespace dppgemm::emu::image
