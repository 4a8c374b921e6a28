// libqrencode, for the QR code a share card may carry (`card --qr URL`; PosterGraphics only).
#include <qrencode.h>
