// Little CMS, for tests that need colour profiles other than sRGB.
#include <lcms2.h>
