/* ws-hw.c: catalogue records — filled in by the catalogue work. */
#include "hw/ws-hw.h"
