/* The web build's one copy of stb_image_write (the desktop links Debian's libstb instead). */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
