# Toolchain file for the wasm preset: finds Emscripten's own toolchain file instead of naming
# one distribution's path, then includes it. Looked for, in order:
#   1. $EMSCRIPTEN (the directory holding emcc, as emsdk_env.sh and Debian's package set it);
#   2. $EMSDK/upstream/emscripten (an activated emsdk);
#   3. emcc on the PATH, symlinks resolved (Debian: /usr/bin/emcc -> /usr/share/emscripten/emcc).
# Also sets CMAKE_CROSSCOMPILING_EMULATOR to node (found on the PATH) when it is not set: emcmake
# would pass node a flag that Node 20 rejects, so the presets do not use emcmake.
set(_slabcast_em_candidates)
if(DEFINED ENV{EMSCRIPTEN})
  list(APPEND _slabcast_em_candidates "$ENV{EMSCRIPTEN}")
endif()
if(DEFINED ENV{EMSDK})
  list(APPEND _slabcast_em_candidates "$ENV{EMSDK}/upstream/emscripten")
endif()
find_program(SLABCAST_EMCC emcc)
if(SLABCAST_EMCC)
  file(REAL_PATH "${SLABCAST_EMCC}" _slabcast_emcc_real)
  get_filename_component(_slabcast_emcc_dir "${_slabcast_emcc_real}" DIRECTORY)
  list(APPEND _slabcast_em_candidates "${_slabcast_emcc_dir}")
endif()

set(_slabcast_em_toolchain "")
foreach(dir IN LISTS _slabcast_em_candidates)
  if(EXISTS "${dir}/cmake/Modules/Platform/Emscripten.cmake")
    set(_slabcast_em_toolchain "${dir}/cmake/Modules/Platform/Emscripten.cmake")
    break()
  endif()
endforeach()
if(NOT _slabcast_em_toolchain)
  message(FATAL_ERROR "Emscripten not found: looked in \$EMSCRIPTEN, \$EMSDK/upstream/emscripten and "
    "beside emcc on the PATH (tried: ${_slabcast_em_candidates}). Install it (Debian: apt-get "
    "install emscripten; npm test does this) or activate an emsdk.")
endif()

if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(SLABCAST_NODE node)
  if(SLABCAST_NODE)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${SLABCAST_NODE}" CACHE FILEPATH "Runs wasm test programs")
  endif()
endif()

include("${_slabcast_em_toolchain}")
