# Writes a C++ source defining the bytes of a file as an array: cmake -DIN=file -DOUT=source.cc
# -DNAME=Symbol -P embed_file.cmake defines `extern const unsigned char Symbol[]` and `Symbol` + "Size".
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by cmake/embed_file.cmake; do not edit.\n#include <cstddef>\n"
     "extern const unsigned char ${NAME}[] = {\n${bytes}\n};\nextern const std::size_t ${NAME}Size = ${size};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
