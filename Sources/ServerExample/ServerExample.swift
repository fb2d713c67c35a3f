// Placeholder: the server example is written in the servers issue.
import Injection
