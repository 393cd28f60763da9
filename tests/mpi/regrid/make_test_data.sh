#!/bin/sh
# Makes the inputs of the regrid tests in directory $1 with CDO: a source field on a
# 10-degree grid (r36x18), weight files from it to a Gaussian grid (n16) by every CDO
# method, and what `cdo remap` makes of the field with each of them (the reference).
# Exits 77 (skipped) when cdo is not installed. Writes the file "ready" last.
set -eu
out=$1
if ! command -v cdo >/dev/null 2>&1; then
  echo "cdo is not installed: the regrid tests that compare with CDO are skipped"
  exit 77
fi
mkdir -p "$out"
cd "$out"
rm -f ready

# A smooth field with structure in longitude and latitude, in double precision.
cdo -s -f nc -b F64 \
  -expr,'f=2+cos(2*rad(clon(const)))*sin(rad(clat(const)))+0.1*clat(const)' \
  -const,1,r36x18 src.nc
# The same field with its southern half missing: rows of the weights lose their
# links there, and the destination keeps the fill value.
cdo -s -setrtomiss,-1e9,2.2 src.nc src_masked.nc

for method in con ycon bil bic dis nn; do
  cdo -s "gen$method,n16" src.nc "w_$method.nc"
  cdo -s "remap,n16,w_$method.nc" src.nc "ref_$method.nc"
done
# Second-order conservative weights: 3 weights per link (value, d/dlat, d/dlon).
cdo -s gencon2,n16 src.nc w_con2.nc
cdo -s genbic,n16 src_masked.nc w_bic_masked.nc
cdo -s remap,n16,w_bic_masked.nc src_masked.nc ref_bic_masked.nc
cdo -s gencon,n16 src_masked.nc w_con_masked.nc
cdo -s remap,n16,w_con_masked.nc src_masked.nc ref_con_masked.nc
# The other way round: 2048 source points onto 648 destination points.
cdo -s -f nc -b F64 -expr,'f=1+sin(rad(clat(const)))*cos(rad(clon(const)))' -const,1,n16 \
  src_n16.nc
cdo -s gencon,r36x18 src_n16.nc w_con_back.nc
cdo -s remap,r36x18,w_con_back.nc src_n16.nc ref_con_back.nc

# Inverse-distance weights to compare online nearest-neighbour weights with. CDO 2.1
# treats destination points beyond the outermost row of a regular source grid
# specially, so the sources here are a Gaussian grid and a curvilinear one (with the
# masked field: CDO drops the masked ones among the 4 nearest points).
cdo -s gendis,r36x18 src_n16.nc w_dis_back.nc
cdo -s setgridtype,curvilinear src_masked.nc src_masked_curvilinear.nc
cdo -s gendis,n16 src_masked_curvilinear.nc w_dis_masked.nc

# Conservative weights where a masked box cuts destination cells: CDO's default
# normalisation (fracarea) and destarea for the cells partly over the box.
cdo -s -setctomiss,-999 -setclonlatbox,-999,40,120,-30,40 src.nc src_box.nc
cdo -s gencon,n16 src_box.nc w_con_box.nc
CDO_REMAP_NORM=destarea cdo -s gencon,n16 src_box.nc w_con_box_destarea.nc

touch ready
