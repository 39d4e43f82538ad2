/* What openocd_tcl.c shares with openocd_tcl_text.c beyond openocd_tcl.h. Private to transport/. */
#ifndef HOST_TRANSPORT_OPENOCD_TCL_PRIV_H
#define HOST_TRANSPORT_OPENOCD_TCL_PRIV_H

#include <stddef.h>

/* Splits HOST:PORT (or ":PORT" / "PORT" for 127.0.0.1) into host and port. 0, or -1 when a part
 * does not fit or the port is not a number. */
int tcl_split_host_port(const char *hp, char *host, size_t hlen, char *port, size_t plen);

#endif /* HOST_TRANSPORT_OPENOCD_TCL_PRIV_H */
