/* check_uninit.c - placeholder, filled below */
#include "ip_check.h"
static void *un_create(ip_launch *l, uint32_t bits) { (void)l; (void)bits; return (void *)1; }
static void un_destroy(void *st) { (void)st; }
const ip_check_plugin ip_check_uninit = {.name = "uninitialized", .bit = IP_DETECT_UNINIT,
  .create = un_create, .destroy = un_destroy};
