# SPDX-License-Identifier: GPL-2.0-or-later
# 32-bit Arm, hard float (Cortex-A7/A9: STM32MP1, i.MX6/7, AM335x):
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-linux-gnueabihf.cmake
set(CMAKE_SYSTEM_PROCESSOR arm)
set(SOCBOX_CROSS_TRIPLET arm-linux-gnueabihf)
set(SOCBOX_QEMU_USER_NAME qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/toolchain-debian-cross.cmake)
