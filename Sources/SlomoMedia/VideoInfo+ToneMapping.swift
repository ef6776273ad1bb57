/// HDR pictures shown or written as SDR: one filter chain for exports and the player.
extension VideoInfo {
    /// True for PQ or HLG pictures, or any with HDR side data.
    public var isHDR: Bool {
        hdr != nil || color.transfer == "smpte2084" || color.transfer == "arib-std-b67"
    }

    /// A libavfilter chain that tone-maps these HDR pictures to BT.709 SDR (zimg's linear
    /// light, Hable's curve at 100 nits), ending in limited-range BT.709.
    public var toneMapToSDRFilter: String {
        var input = "t=linear:npl=100"
        if let transfer = color.transfer { input = "tin=\(transfer):" + input }
        if let primaries = color.primaries { input = "pin=\(primaries):" + input }
        if let matrix = color.matrix { input = "min=\(matrix):" + input }
        return "zscale=\(input),format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,"
            + "zscale=t=bt709:m=bt709:r=tv"
    }
}
