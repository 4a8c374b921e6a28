// TurboJPEG's tj* API reports errors as return codes, so Swift can call it directly.
#include <stddef.h>
#include <turbojpeg.h>
