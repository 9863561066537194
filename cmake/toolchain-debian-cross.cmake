# SPDX-License-Identifier: GPL-2.0-or-later
# Shared part of the cross toolchain files: Debian's cross compiler for SOCBOX_CROSS_TRIPLET
# and the target's multiarch -dev packages (libpopt-dev:ARCH ...), no separate sysroot.
# scripts/setup installs both, and qemu-user to run the target's unit tests.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${SOCBOX_CROSS_TRIPLET}-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE ${SOCBOX_CROSS_TRIPLET})
# pkg-config answers with the target's .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${SOCBOX_CROSS_TRIPLET}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
# Target binaries (the unit suites) run under qemu-user; the multiarch libc6:ARCH package
# puts the target's dynamic loader where the binaries look for it.
find_program(SOCBOX_QEMU_USER ${SOCBOX_QEMU_USER_NAME})
if(SOCBOX_QEMU_USER)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SOCBOX_QEMU_USER})
endif()
