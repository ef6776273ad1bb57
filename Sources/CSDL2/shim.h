// SDL 2.26 (Debian's libsdl2-dev): the window, renderer and audio device of `slomo play`.
// SDL_MAIN_HANDLED: slomo has its own main; SDL must not rename it.
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
