/// The help texts of `knoblink`, byte for byte: these are what users and scripts read.
enum HelpFixtures {
    static let root = #"""
        OVERVIEW: Send, receive and inspect Open Sound Control messages.

        USAGE: knoblink <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          send                    Send OSC messages over UDP or TCP, like oscsend.
          dump                    Print received OSC messages exactly as oscdump does.
          serve                   Serve a parameter tree over OSC (UDP and TCP).
          surface                 Control a remote server's knobs in this terminal.
          get                     Ask a KnobLink server for a parameter's value.
          tree                    Print the parameters of a tree, and check a tree file.
          waveform                Write an audio file's waveform: data, text, pictures.

          See 'knoblink help <subcommand>' for detailed help.

        """#

    static let send = #"""
        OVERVIEW: Send OSC messages over UDP or TCP, like oscsend.

        Types: i int32, h int64, f float32, d double, s string, S symbol, c char (its
        first byte), m MIDI (8 hex digits), T true, F false, N nil, I impulse, as
        oscsend; and b blob (hex digits, 0x optional), t time tag (now, immediately,
        +SECONDS or SSSSSSSS.FFFFFFFF as oscdump prints it), r RGBA colour (8 hex
        digits), [ ] array. T F N I [ ] take no value.

        With the address '-', each line of standard input is one message, written
        ADDRESS [TYPES [VALUES ...]], with shell quoting ('a b', "a b", a\ b); blank
        lines and lines starting with # are skipped. Without --bundle each line is sent
        as soon as it is read.

        Options must come before the values; a value that starts with '-' is read as a
        value if it is a number or comes after the address, or after '--'.

        USAGE: knoblink send [<options>] <host> <port> <address> [<types>] [<values> ...]
               knoblink send [<options>] <url> <address> [<types>] [<values> ...]

        ARGUMENTS:
          <host>                  The receiver's host name or IP address.
          <port>                  The receiver's port.
          <url>                   The receiver as osc.udp://host:port/ or
                                  osc.tcp://host:port/; file:///path or - write the
                                  packets' bytes to a file or to standard output, as
                                  oscsend does.
          <address>               The OSC address, or '-' to read messages from standard
                                  input.
          <types>                 The type tags of the values.
          <values>                One value for each type that takes one.

        OPTIONS:
          --tcp                   Send over TCP instead of UDP.
          --framing <framing>     TCP framing: 'length' (OSC 1.0 int32 length prefix, as
                                  liblo's osc.tcp) or 'slip' (OSC 1.1). Implies --tcp.
                                  (default: length)
          --bundle                Send all the messages in one bundle.
          --time-tag <time-tag>   The bundle's time tag: now, immediately, +SECONDS or
                                  SSSSSSSS.FFFFFFFF. Implies --bundle. (default:
                                  immediately)
          -h, --help              Show help information.

        """#

    static let dump = #"""
        OVERVIEW: Print received OSC messages exactly as oscdump does.

        Each message is one line: the time tag (the current time for 'immediately'), the
        address, the type tags and the values, exactly as oscdump 0.31 prints them, so
        that scripts can use either tool. Messages of a bundle timed in the future are
        printed when it is due, as oscdump does. A malformed packet is reported on
        standard error with the reason, and the dump goes on. Lines are written as soon
        as their packet arrives; SIGINT and SIGTERM end the dump. Over TCP, each
        connection's framing (OSC 1.0 length prefix or OSC 1.1 SLIP) is told from its
        first byte.

        USAGE: knoblink dump [--tcp] [--hex] [--raw] [--no-delay] [--line-buffered] <port>

        ARGUMENTS:
          <port>                  The port to listen on (0 picks a free one), or
                                  osc.udp://:PORT, osc.tcp://:PORT, or
                                  osc.udp://GROUP:PORT to join a multicast group. The
                                  port is printed on standard error.

        OPTIONS:
          --tcp                   Listen for TCP connections instead of UDP datagrams.
          --hex                   Print the raw bytes of each packet after its lines.
          -r, --raw               Write each message's bytes instead of its line, as
                                  oscdump -r does.
          --no-delay              Print the messages of bundles timed in the future at
                                  once.
          -L, --line-buffered     Accepted for oscdump's -L; every line is written at
                                  once anyway.
          -h, --help              Show help information.

        """#
}
