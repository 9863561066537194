# SPDX-License-Identifier: GPL-2.0-or-later
# The programs the guest tests run besides socbox, built for the guest's architecture into
# ${CMAKE_BINARY_DIR}/tests/vm/bin, which tests/vm/run copies into the guest's /usr/bin.
# Included by tests/vm/CMakeLists.txt (the x86-64 guests: dynamic, their libraries copied
# along) and, with SOCBOX_VM_HELPERS=ON, by scripts/build-static's static builds, whose
# helpers tests/vm/arm builds for the Arm guests (no C library there: static, and no
# preload library).
set(SOCBOX_VM_DIR ${CMAKE_SOURCE_DIR}/tests/vm)
set(SOCBOX_VM_BIN ${CMAKE_BINARY_DIR}/tests/vm/bin)

function(socbox_vm_helper name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SOCBOX_VM_BIN})
  if(SOCBOX_STATIC)
    target_link_options(${name} PRIVATE -static)
  endif()
endfunction()

file(GLOB SOCBOX_VMPROBE_SOURCES CONFIGURE_DEPENDS ${SOCBOX_VM_DIR}/probe/*.c)
socbox_vm_helper(socbox-vmprobe ${SOCBOX_VM_DIR}/probe.c ${SOCBOX_VMPROBE_SOURCES})

# bench/rpmsg's reference: the same ioctls as rpmsgctl bench --method legacy, in a plain loop
socbox_vm_helper(socbox-rpmsg-loop ${SOCBOX_VM_DIR}/helpers/rpmsg_loop.c)

# bench/rpmsg-tput's reference: what rpmsgctl throughput does, in a plain C program
socbox_vm_helper(socbox-rpmsg-tput ${SOCBOX_VM_DIR}/helpers/rpmsg_tput.c)
target_link_libraries(socbox-rpmsg-tput PRIVATE Threads::Threads)

# guest/events-flood.sh: floods the kernel log through /dev/kmsg
socbox_vm_helper(socbox-kmsg-flood ${SOCBOX_VM_DIR}/helpers/kmsg_flood.c)

# guest/faults.sh: preloaded into a command, fails its Nth fault point (fail-nth); a
# static socbox takes no preload
if(NOT SOCBOX_STATIC)
  add_library(socbox-failnth SHARED ${SOCBOX_VM_DIR}/helpers/failnth.c)
  set_target_properties(socbox-failnth PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${SOCBOX_VM_BIN})
endif()

# guest/devmem.sh: header-data split on a netdevsim port (the guest has no ethtool)
socbox_vm_helper(socbox-ethtool-hds ${SOCBOX_VM_DIR}/helpers/ethtool_hds.c)
target_link_libraries(socbox-ethtool-hds PRIVATE socboxcore)

# guest/devmem.sh: the TCP sender whose stream devmemstat rx receives (kperf's Tx line)
socbox_vm_helper(socbox-tcp-send ${SOCBOX_VM_DIR}/helpers/tcp_send.c)

# runs a command with the stop signals at their default action: tests that send SIGINT to a
# background job need it (the shell started the job with SIGINT ignored); host tests too
socbox_vm_helper(socbox-sigdfl ${SOCBOX_VM_DIR}/helpers/sigdfl.c)

# guest/doctor-causes.sh: doctor as a user who is not root (a heap node it cannot open)
socbox_vm_helper(socbox-asuser ${SOCBOX_VM_DIR}/helpers/asuser.c)

# guest/events.sh and the arm64 guests: starts a DMA read of QEMU's edu device through
# sysfs (no /dev/mem needed)
socbox_vm_helper(socbox-edu-dma ${SOCBOX_VM_DIR}/helpers/edu_dma.c)
