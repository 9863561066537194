# SPDX-License-Identifier: GPL-2.0-or-later
# 64-bit Arm (AM62x, i.MX8MP, arm64 servers):
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(SOCBOX_CROSS_TRIPLET aarch64-linux-gnu)
set(SOCBOX_QEMU_USER_NAME qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/toolchain-debian-cross.cmake)
