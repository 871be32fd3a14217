package conversation

import ()
